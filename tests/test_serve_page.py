"""The page `react-engine serve` serves, in a real headless Chromium (Debian's, driven by Playwright): open logs,
ask, see the steps arrive and the verified answer with its chart, then approve an export in the dialog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from serve_server import logs_root, running

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="needs Debian's chromium: apt-get install -y chromium")


def test_the_page_asks_shows_the_steps_and_approves_an_export(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright: pip install playwright")
    root = logs_root(tmp_path)
    with running([root]) as base, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 1100})
            page.goto(base + "/")
            sync_api.expect(page.locator("#server")).to_contain_text(str(root.resolve()))
            page.fill("#logs", "app")
            page.keyboard.press("Enter")  # the logs field opens them with Enter
            sync_api.expect(page.locator("#question")).to_be_enabled()
            sync_api.expect(page.locator("#question")).to_be_focused()

            page.keyboard.type("how many errors per hour?")
            page.keyboard.press("Enter")
            sync_api.expect(page.locator("#mark")).to_have_text("✓ verified: every number was computed by a tool")
            actions = page.locator("#steps .action").all_text_contents()
            assert actions[0] == "filter_by_severity" and actions[-1] == "finalize_answer"
            assert page.locator("#chart .bar").count() >= 2  # the histogram as bars
            shots = os.environ.get("SERVE_PAGE_SCREENSHOTS")  # a folder: the README's pictures are taken here
            if shots:
                page.screenshot(path=f"{shots}/serve-answer.png", full_page=True)

            page.fill("#question", "export errors to errors.csv")
            page.keyboard.press("Enter")
            dialog = page.locator("#approval")
            sync_api.expect(dialog).to_be_visible()
            sync_api.expect(page.locator("#approval-tool")).to_have_text("export_results")
            sync_api.expect(page.locator("#approval-parameters")).to_contain_text("errors.csv")
            sync_api.expect(page.locator("#status")).to_contain_text("Waiting for your approval")
            assert not (root / "errors.csv").exists()
            if shots:
                page.screenshot(path=f"{shots}/serve-approval.png")
            page.fill("#approval-reason", "for the incident notes")
            page.click("#approve")
            sync_api.expect(page.locator("#answer")).to_contain_text("Wrote 156 log lines")
            sync_api.expect(dialog).to_be_hidden()
            assert len((root / "errors.csv").read_text().splitlines()) == 157

            page.fill("#question", "export errors to refused.csv")
            page.keyboard.press("Enter")
            sync_api.expect(dialog).to_be_visible()
            page.keyboard.press("Escape")  # Esc rejects
            sync_api.expect(page.locator("#answer")).to_contain_text("not approved")
            assert not (root / "refused.csv").exists()
        finally:
            browser.close()


def test_the_page_asks_for_the_token_and_streams_with_it(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright: pip install playwright")
    root = logs_root(tmp_path)
    with running([root], token="page-secret") as base, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 380, "height": 800})  # a narrow window
            page.goto(base + "/")
            sync_api.expect(page.locator("#token")).to_be_visible()  # the API said 401
            page.fill("#token", "page-secret")
            page.fill("#logs", "app")
            page.click("#open")
            sync_api.expect(page.locator("#question")).to_be_enabled()
            page.keyboard.type("how many errors?")
            page.keyboard.press("Enter")
            sync_api.expect(page.locator("#answer")).to_have_text("156 log lines (with severity error).")
            assert page.locator("#steps li").count() == 3  # streamed with the token in the address
        finally:
            browser.close()
