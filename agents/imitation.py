"""Warm start by imitation: train the policy's action logits to copy the greedy baseline.

Samples are generated on the fly by the batch engine: games where every seat plays greedy (with a
share of random moves for state diversity), labelled by the numba greedy kernel. A policy that already
plays like greedy beats random play, so PPO starts from a sensible policy instead of from scratch
(the same idea as the supervised start of AlphaGo/AlphaStar).
"""

from __future__ import annotations

import numpy as np

from kbenv.vector import VectorGames


def imitation_batches(num_games: int, players: list[int], samples: int, chunk: int, random_share: float,
                      seed: int):
    """Yield (observations, legal masks, greedy-best masks) chunks until `samples` have been produced.

    The greedy-best mask marks every action greedy values highest, so ties are not noise in the labels.
    """
    counts = np.array([players[i % len(players)] for i in range(num_games)], dtype=np.int64)
    games = VectorGames(num_games, counts, auto_reset=True)
    games.reset(seed * 7919 + 1)
    rng = np.random.default_rng(seed)
    produced = 0
    while produced < samples:
        obs, masks, labels = [], [], []
        size = 0
        while size < chunk:
            o = games.observations()
            m = games.legal_masks()
            best = games.greedy_best_masks()
            greedy = games.greedy_actions()
            obs.append(o)
            masks.append(m)
            labels.append(best)
            size += len(greedy)
            explore = rng.random(num_games) < random_share
            actions = np.where(explore, games.random_actions(), greedy)
            games.apply_legal(actions, games.all_rows)
        produced += size
        yield np.concatenate(obs), np.concatenate(masks), np.concatenate(labels)


def imitate(model, samples: int, players: list[int], num_games: int = 64, chunk: int = 2048, epochs: int = 2,
            batch_size: int = 256, random_share: float = 0.2, lr: float = 1e-3, seed: int = 0, log=print) -> dict:
    """Maximise the policy's probability of greedy's best set; returns the final accuracy (argmax in set)."""
    import torch

    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    device = policy.device
    accuracy = 0.0
    seen = 0
    for obs, masks, labels in imitation_batches(num_games, players, samples, chunk, random_share, seed):
        for _ in range(epochs):
            order = np.random.default_rng(seen).permutation(len(labels))
            correct = 0
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                o = torch.as_tensor(obs[idx], device=device)
                m = torch.as_tensor(masks[idx], device=device, dtype=torch.bool)
                best = torch.as_tensor(labels[idx], device=device, dtype=torch.bool)
                features = policy.extract_features(o, policy.pi_features_extractor)
                latent_pi = policy.mlp_extractor.forward_actor(features)
                logits = policy.action_net(latent_pi).masked_fill(~m, -1e8)
                log_in_set = torch.logsumexp(logits.masked_fill(~best, -1e8), dim=1)
                loss = (torch.logsumexp(logits, dim=1) - log_in_set).mean()
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
                correct += int(best.gather(1, logits.argmax(1, keepdim=True)).sum())
            accuracy = correct / len(order)
        seen += len(labels)
        log(f"  imitation: {seen} samples, accuracy {accuracy:.3f}")
    return {"samples": seen, "accuracy": accuracy}
