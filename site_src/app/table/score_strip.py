"""The game page's compact score strip: each side's score as a bar towards the target (phones).

Part of the game page (site_src/app/game.py is its entry point). On a narrow screen the board
sits below the table, out of view while playing; this strip keeps the race in view inside the
table itself (table-fit.css shows it only where the board is not beside the table). It is drawn
from the same scores as the board's pegs and is decoration for screen readers (the seats' scores
are said in words).
"""

from dom import document

from cardview import make

LANE_CLASSES = ("lane-0", "lane-1", "lane-2")


def render(names, scores, target, element_id="score-strip"):
    """Draw one lane per side: its name, a bar filled to its score (capped at the target), and the
    score. Redraws only what changed, so the bars can slide."""
    strip = document.getElementById(element_id)
    if strip is None:
        return
    lanes = strip.querySelectorAll(".strip-lane")
    if lanes.length != len(names):
        strip.replaceChildren()
        for lane in range(len(names)):
            row = make("div", "strip-lane " + LANE_CLASSES[lane % len(LANE_CLASSES)])
            bar = make("progress", "strip-bar")
            row.append(make("span", "strip-name"), bar, make("span", "strip-score"))
            strip.append(row)
        lanes = strip.querySelectorAll(".strip-lane")
    for lane in range(len(names)):
        row = lanes.item(lane)
        score = int(scores[lane]) if lane < len(scores) else 0
        row.querySelector(".strip-name").textContent = names[lane]
        bar = row.querySelector(".strip-bar")
        bar.max = target
        bar.value = min(score, target)
        row.querySelector(".strip-score").textContent = str(score)
    strip.setAttribute("data-target", str(target))
