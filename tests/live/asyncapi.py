"""Reading api/asyncapi.yaml: its message schemas as a strict validator (no property the
document does not name), and its close codes per channel."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from tests.yaml_text import read_yaml

REPOSITORY = Path(__file__).resolve().parents[2]
DOCUMENT_PATH = REPOSITORY / "api" / "asyncapi.yaml"
# The specification's own JSON Schema of an AsyncAPI 3.0.0 document, from the
# @asyncapi/specs package that package-lock.json pins (`make test` installs it).
SPECIFICATION_SCHEMA = REPOSITORY / "node_modules" / "@asyncapi" / "specs" / "schemas" / "3.0.0-without-$id.json"
ROOT = "urn:asyncapi"


def load() -> dict[str, Any]:
    return read_yaml(DOCUMENT_PATH.read_text())


def strict(node: Any) -> Any:
    """`node` with every object schema closed: what the document does not name fails."""
    if isinstance(node, dict):
        closed = {key: strict(value) for key, value in node.items()}
        if closed.get("type") == "object" and "properties" in closed:
            closed.setdefault("additionalProperties", False)
        return closed
    if isinstance(node, list):
        return [strict(value) for value in node]
    return node


class Contract:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            ROOT, Resource.from_contents(strict(copy.deepcopy(document)), default_specification=DRAFT7)
        )

    def message_for(self, channel: str, sent: dict[str, Any], *, by_client: bool = False) -> str:
        """The name of the channel's message that `sent` is, by its `type` and direction."""
        names = self.operation_messages(channel, "receive" if by_client else "send", replies=not by_client)
        matches = [name for name in names if self.payload(channel, name)["properties"]["type"]["const"] == sent["type"]]
        assert len(matches) == 1, f"{sent} is no single message of channel {channel}: {matches}"
        return matches[0]

    def validate(self, channel: str, sent: dict[str, Any], *, by_client: bool = False) -> str:
        name = self.message_for(channel, sent, by_client=by_client)
        ref = self.document["channels"][channel]["messages"][name]["$ref"]
        schema = {"$ref": f"{ROOT}{ref}/payload"}
        jsonschema.Draft7Validator(
            schema, registry=self.registry, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
        ).validate(sent)
        return name

    def payload(self, channel: str, name: str) -> dict[str, Any]:
        message = self.resolve(self.document["channels"][channel]["messages"][name]["$ref"])
        return self.resolve(message["payload"]["$ref"])

    def operation_messages(self, channel: str, action: str, *, replies: bool) -> list[str]:
        """Names of the channel's messages that operations with `action` carry (and, with
        `replies`, the replies of the opposite operations)."""
        names = []
        prefix = f"#/channels/{channel}/messages/"
        for operation in self.document["operations"].values():
            if operation["channel"]["$ref"] != f"#/channels/{channel}":
                continue
            if operation["action"] == action:
                names += [m["$ref"].removeprefix(prefix) for m in operation["messages"]]
            elif replies and "reply" in operation:
                names += [m["$ref"].removeprefix(prefix) for m in operation["reply"]["messages"]]
        return names

    def resolve(self, ref: str) -> Any:
        assert ref.startswith("#/"), ref
        node: Any = self.document
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def close_codes(self, channel: str) -> set[tuple[int, str]]:
        return {(c["code"], c["reason"]) for c in self.document["channels"][channel]["x-close-codes"]}
