"""OpenSpiel's information-set MCTS (ISMCTSBot) plays kbenv's `python_kingdom_builder` against random play.

    python docs/tutorials/openspiel_ismcts.py --games 4 --sims 32

The deal is the game's only chance event; the bot searches worlds resampled from what it has seen
(`state.resample_from_infostate`, here through kbenv's seeded resampler), never the hidden cards themselves.
"""

from __future__ import annotations

import argparse

import numpy as np
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

import kbenv.openspiel as kos  # registers python_kingdom_builder with pyspiel


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games; the bot changes seats every game")
    parser.add_argument("--sims", type=int, default=32, help="ISMCTS simulations a decision")
    parser.add_argument("--rollout-length", type=int, default=40, help="random rollout steps per simulation")
    parser.add_argument("--expansions", default="", help="e.g. nomads,crossroads")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def play(game, bot_seat: int, bot: ISMCTSBot, rng: np.random.Generator) -> list[float]:
    """One game: the bot in `bot_seat`, uniform random legal play in the other seat; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():  # the deal: kbenv's 32-bit set-up seed in two chance draws
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == bot_seat:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state.returns()


def main(argv: list[str] | None = None) -> dict:
    """Play the games; return the bot's wins, losses and ties."""
    args = parse_args(argv)
    game = kos.load_game(2, args.expansions)
    rng = np.random.default_rng(args.seed)
    wins = losses = ties = 0
    for k in range(args.games):
        seat = k % 2
        evaluator = RandomRolloutEvaluator(1, np.random.RandomState(args.seed + k), max_length=args.rollout_length)
        bot = ISMCTSBot(game, evaluator, 2.0, args.sims, random_state=np.random.RandomState(args.seed + k))
        bot.set_resampler(kos.seeded_resampler(seat))
        returns = play(game, seat, bot, rng)
        wins += returns[seat] > 0
        losses += returns[seat] < 0
        ties += returns[seat] == 0
    print(f"ISMCTS ({args.sims} simulations) against random: {wins} won, {losses} lost, {ties} tied")
    return {"wins": wins, "losses": losses, "ties": ties}


if __name__ == "__main__":
    main()
