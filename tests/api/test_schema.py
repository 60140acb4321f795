import pytest

pytestmark = pytest.mark.django_db


def test_openapi_document_lists_paths_and_error_codes(api_client):
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    doc = res.json()
    assert "/api/v1/rooms/{code}/actions" in doc["paths"]
    for code in ("must_follow_suit", "stale_version", "not_your_turn", "card_not_in_hand", "room_full"):
        assert f"`{code}`" in doc["info"]["description"]


def test_swagger_ui_is_served_without_a_cdn(api_client):
    res = api_client().get("/api/docs/")
    assert res.status_code == 200
    html = res.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


def test_json_whatever_the_client_accepts_and_the_schema_still_negotiates(api_client):
    """The JSON-only endpoints answer JSON even to an Accept header that asks otherwise;
    the schema, which has several renderers, still follows the header."""
    client = api_client()
    res = client.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert res.status_code == 200
    assert res["Content-Type"].startswith("application/json")
    assert {g["key"] for g in res.json()} == {"hearts", "moon", "kali_tidi"}
    yaml = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi:")
    as_json = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert as_json["Content-Type"].startswith("application/vnd.oai.openapi+json")
