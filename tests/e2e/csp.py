"""Content-Security-Policy violations in the browser tests (docs/operations/security.md).

`watch(context)` records, for every page of a browser context, each
`securitypolicyviolation` event (through a binding of Playwright's, which survives every
navigation) and each console message about the policy; the fixtures that make pages
(`open_page`, `make_run_page`, and the tests' own contexts) fail the test when any came.
"""

from __future__ import annotations

from typing import Any

# Before any of the page's own scripts, on every page and frame of the context. The
# event bubbles from the element that broke the policy up to the document.
LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  const report = {
    page: location.href,
    directive: event.effectiveDirective,
    blocked: event.blockedURI,
    source: event.sourceFile,
    line: event.lineNumber,
    sample: event.sample,
    disposition: event.disposition,
  };
  (window.__cspViolations = window.__cspViolations || []).push(report);
  if (typeof window.__cspViolation === "function") window.__cspViolation(report);
}, true);
"""


def watch(context: Any) -> list[Any]:
    """The violations of this context's pages, as they come."""
    violations: list[Any] = []
    context.expose_binding("__cspViolation", lambda source, report: violations.append(report))
    context.add_init_script(LISTENER)

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            violations.append(f"console: {message.text}")

    context.on("console", console)
    return violations


def assert_none(violations: list[Any]) -> None:
    assert not violations, f"Content-Security-Policy violations: {violations}"
