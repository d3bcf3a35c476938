"""A stored value too large to use and too large to copy aside is not said to be set aside.

local_storage.py moves a value longer than it reads (MAX_VALUE) to KEY.backup before the page goes on;
when storage has no room for that copy (the value fills it), the value stays where it was and
the notice says so, instead of promising a copy that was never made.
"""

from __future__ import annotations

from tests.e2e.conftest import engine_ready, ui_ready
from tests.e2e.test_integrity import KEYS, game_page, notices, open_page, storage, wait_for_notice  # noqa: F401
from tests.e2e.test_game_play import wait_decision

FILL_STORAGE_JS = """(key) => {
  // Nearly the longest value storage takes under key (binary search): room is left for small
  // writes, none to copy it.
  let low = 0, high = 64 * 1024 * 1024;
  while (low < high) {
    const n = Math.ceil((low + high) / 2);
    try { localStorage.setItem(key, "x".repeat(n)); low = n; }
    catch (error) { high = n - 1; }
  }
  localStorage.setItem(key, "x".repeat(low - 4096));
  return low - 4096;
}"""


def test_a_value_too_large_to_copy_aside_is_not_reported_as_set_aside(game_page):
    page = game_page
    open_page(page)
    key = KEYS["stats"]
    stored = page.evaluate(FILL_STORAGE_JS, key)
    assert stored > 1_000_000
    page.reload()
    ui_ready(page)
    engine_ready(page)
    text = wait_for_notice(page, "too large to keep a copy of")
    assert "set aside" not in text and "kept aside" not in text, text
    kept = storage(page)
    assert key + ".backup" not in kept and len(kept.get(key, "")) == stored  # nothing promised, nothing lost
    assert wait_decision(page) in ("setup", "discard")
    page.screenshot(path="/tmp/storage-full-1280.png")
