#!/usr/bin/env python3
"""catanatron replays its own records: the yardstick `make bench` holds `almanac validate` against.

For every catanatron-dump/1 file given, the game is set up again in catanatron (same seed, map, target
and discard limit) and each recorded action is applied as catanatron recorded it, outcome included (the
dice, the stolen card, the card drawn), so no random number decides anything. The script checks that
each replay ends with the recorded winner, and prints the files, the actions and the seconds it took,
reading the files included, like the whole `almanac validate` process it is compared with.

    .venv-catanatron/bin/python bench/catanatron_replay.py bench-corpus/*.json
"""
import json
import random
import sys
import time

from catanatron.game import Game
from catanatron.models.enums import Action, ActionType
from catanatron.models.player import Color, RandomPlayer

# catanatron seats players in this order before it shuffles them with the game's seed.
COLOR_ORDER = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]


def action_value(kind, value):
    """A recorded action's value as catanatron holds it (tuples where it uses tuples)."""
    if kind == "MOVE_ROBBER":
        coordinate, victim, card = value
        return (tuple(coordinate), Color[victim] if victim else None, card)
    if kind in ("BUILD_ROAD", "ROLL", "MARITIME_TRADE", "PLAY_YEAR_OF_PLENTY", "DISCARD"):
        return tuple(value) if value is not None else None
    return value


def replay(dump):
    game_info = dump["game"]
    random.seed(game_info["seed"])
    catan_map = None
    if game_info.get("map", "BASE") != "BASE":
        from catanatron.models.map import build_map

        catan_map = build_map(game_info["map"])
    players = [RandomPlayer(c) for c in COLOR_ORDER[: len(game_info["seating"])]]
    game = Game(
        players,
        seed=game_info["seed"],
        vps_to_win=game_info["vps_to_win"],
        discard_limit=game_info.get("discard_limit", 7),
        catan_map=catan_map,
    )
    seating = [c.value for c in game.state.colors]
    if seating != game_info["seating"]:
        raise SystemExit(f"{game_info['id']}: catanatron seats {seating}, the record {game_info['seating']}")
    for event in dump["events"]:
        kind = event["type"]
        action = Action(Color[event["color"]], ActionType[kind], action_value(kind, event["raw"]["value"]))
        game.execute(action, validate_action=False)
    winner = game.winning_color()
    if (winner.value if winner else None) != dump["final"]["winner"]:
        raise SystemExit(f"{game_info['id']}: the replay's winner is {winner}, the record's {dump['final']['winner']}")
    return len(dump["events"])


def main(paths):
    started = time.perf_counter()
    actions = 0
    for path in paths:
        with open(path) as f:
            actions += replay(json.load(f))
    seconds = time.perf_counter() - started
    print(f"catanatron replayed {len(paths)} games, {actions} actions, in {seconds:.2f} s (reading the files included)")


if __name__ == "__main__":
    main(sys.argv[1:])
