"""The desk's service worker and manifest, served outside the API."""


def test_the_service_worker_is_served_from_the_root_never_stale(client, settings, tmp_path):
    (tmp_path / "desk-sw.js").write_text("// the built worker")
    settings.FRONTEND_DIST = tmp_path

    response = client.get("/desk-sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response.content == b"// the built worker"


def test_the_manifest_installs_the_campaigns_desk(client):
    response = client.get("/campaign/7/desk.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response.json()["start_url"] == "/campaign/7/desk"
    assert response.json()["display"] == "standalone"
