"""The documentation site at /docs/: `make docs` builds it (mkdocs.yml) into
`DOCS_SITE_DIR`, and WhiteNoise serves it there (config/static_files.py). Nothing is built
here: a tiny site written into a temporary folder stands in for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import Resolver404, resolve

from tests.yaml_text import read_yaml

ROOT = Path(settings.BASE_DIR)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<h1>the site's home</h1>")
    (tmp_path / "some-page").mkdir()
    (tmp_path / "some-page" / "index.html").write_text("<h1>some page</h1>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "site.css").write_text("body { margin: 0 }")
    return tmp_path


# Under DEBUG (make run) WhiteNoise looks files up at each request; in a deployment it
# reads the folder once, as the process starts: both serve the site.
@pytest.mark.filterwarnings("ignore:No directory at")  # STATIC_ROOT, before collectstatic
@pytest.mark.parametrize("autorefresh", [True, False], ids=["autorefresh", "read-at-startup"])
def test_the_built_site_is_served_at_docs(site: Path, autorefresh: bool) -> None:
    with override_settings(DOCS_SITE_DIR=site, WHITENOISE_AUTOREFRESH=autorefresh):
        client = Client()  # a new handler: the middleware reads the settings as it starts
        home = client.get("/docs/")
        assert home.status_code == 200
        assert home.getvalue() == b"<h1>the site's home</h1>"
        assert home["Content-Type"].startswith("text/html")
        page = client.get("/docs/some-page/")
        assert page.status_code == 200
        assert page.getvalue() == b"<h1>some page</h1>"
        assert client.get("/docs/assets/site.css").status_code == 200
        # A folder without its slash goes to it; a page the site lacks is not found.
        bare = client.get("/docs/some-page")
        assert bare.status_code == 302 and bare["Location"].endswith("some-page/")
        assert client.get("/docs/no-such-page/").status_code == 404


@pytest.mark.filterwarnings("ignore:No directory at")
def test_no_site_built_is_a_404(tmp_path: Path) -> None:
    with override_settings(DOCS_SITE_DIR=tmp_path / "not-built", WHITENOISE_AUTOREFRESH=False):
        assert Client().get("/docs/").status_code == 404


def test_no_route_of_the_site_claims_docs() -> None:
    """WhiteNoise answers before the URL patterns; none of them (the web client's pages
    above all) may answer /docs/ instead, and the API's Swagger UI stays at /api/docs/."""
    with pytest.raises(Resolver404):
        resolve("/docs/")
    with pytest.raises(Resolver404):
        resolve("/docs/some-page/")
    assert resolve("/api/docs/").url_name == "docs"


def test_the_server_serves_the_folder_make_docs_builds() -> None:
    config = read_yaml((ROOT / "mkdocs.yml").read_text())
    assert (ROOT / config["site_dir"]).resolve() == Path(settings.DOCS_SITE_DIR).resolve()
    makefile = (ROOT / "Makefile").read_text()
    assert f"DOCS_DIR ?= {config['site_dir']}\n" in makefile
