"""Warm start by imitation: train the policy's action logits to copy a built-in teacher.

The teacher is greedy or lookahead (greedy over the rest of the own turn; kbenv.policies.lookahead).
Samples are generated on the fly by the batch engine: games where every seat plays the teacher (with a
share of random moves for state diversity), labelled by the teacher's numba kernel; the value head is
fitted to each game's outcome at the same time, so PPO does not start with an untrained critic. A policy that already
plays like greedy beats random play, so PPO starts from a sensible policy instead of from scratch
(the same idea as the supervised start of AlphaGo/AlphaStar).
"""

from __future__ import annotations

import numpy as np

from kbenv.vector import VectorGames, best_sets


def imitation_batches(num_games: int, players: list[int], samples: int, random_share: float, seed: int,
                      reward: str = "score", teacher: str = "greedy", hints: str = "none", expansions=None,
                      rules=None, positions: bool = False, packed: bool = False, layout: str | None = None):
    """Yield (observations, legal masks, best masks, outcomes, teacher values) per chunk of games.

    The best mask marks every action the teacher values highest, so ties are not noise in the
    labels; the values (float32, -inf for illegal actions) rank all the other actions too; the
    outcome is the mover's terminal reward in that game (a target for the value head). Each chunk
    plays `num_games` complete games, so every sample has its outcome. The teacher's move played is
    drawn among the best set (one kernel call gives labels and moves). With `expansions` or `rules` the
    games play that ruleset (observation v1 and the v1 action layout; no hints). With `positions`, each
    chunk also gives the engine states the samples were taken in and the final state of each sample's
    game ((N, STATE_SIZE) int64 each: what the search network's value targets are computed from,
    agents.training.az_warm). With `packed`, the observations are packed uint8 rows (kbenv.packed), about
    2 KB a position instead of 45-80 KB. `layout`: as for kbenv.vector.VectorGames.
    """
    counts = np.array([players[i % len(players)] for i in range(num_games)], dtype=np.int64)
    games = VectorGames(num_games, counts, auto_reset=False, reward=reward, hints=hints, expansions=expansions,
                        rules=rules, packed=packed, layout=layout)
    rng = np.random.default_rng(seed)
    produced = 0
    round_ = 0
    while produced < samples:
        games.reset(seed * 7919 + round_ * num_games)
        round_ += 1
        obs, masks, labels, values, slots, seats, states = [], [], [], [], [], [], []
        rewards = np.zeros((num_games, 5))
        while not games.done().all():
            rows = np.flatnonzero(~games.done())
            obs.append(games.observations(rows))
            if positions:
                states.append(games.states[rows].copy())
            masks.append(games.legal_masks(rows))
            value = games.teacher_values(teacher, rows)
            best = best_sets(value)
            labels.append(best)
            values.append(value.astype(np.float32))
            slots.append(rows)
            seats.append(games.current_players()[rows])
            chosen = np.argmax(best + 0.5 * rng.random(best.shape), axis=1)  # uniform among the ties
            explore = rng.random(len(rows)) < random_share
            actions = np.where(explore, games.random_actions(rows), chosen)
            result = games._apply(actions, rows)
            rewards[rows[result.done]] = result.rewards[result.done]
        slots_all, seats_all = np.concatenate(slots), np.concatenate(seats)
        outcomes = rewards[slots_all, seats_all].astype(np.float32)
        produced += len(outcomes)
        chunk = (np.concatenate(obs), np.concatenate(masks), np.concatenate(labels), outcomes, np.concatenate(values))
        if positions:  # every game is over: its slot holds its final state (no auto reset)
            chunk += (np.concatenate(states), games.states[slots_all])
        yield chunk


def soft_cross_entropy(logits, legal, values, temperature: float):
    """Cross-entropy to softmax(teacher values / temperature) over the legal actions (torch tensors)."""
    import torch

    target = torch.softmax(values.masked_fill(~legal, -1e9) / temperature, dim=1)
    log_p = torch.log_softmax(logits.masked_fill(~legal, -1e8), dim=1)
    return -(target * log_p.masked_fill(~legal, 0.0)).sum(dim=1).mean()


def set_cross_entropy(logits, legal, best):
    """Mean of -log P(best set) under the masked softmax, and the argmax hit rate (torch tensors)."""
    import torch

    logits = logits.masked_fill(~legal, -1e8)
    log_in_set = torch.logsumexp(logits.masked_fill(~best, -1e8), dim=1)
    loss = (torch.logsumexp(logits, dim=1) - log_in_set).mean()
    hits = best.gather(1, logits.argmax(1, keepdim=True)).float().mean()
    return loss, hits


def action_logits(policy, observations):
    """The policy's raw action logits for a batch of observations (before masking)."""
    features = policy.extract_features(observations, policy.pi_features_extractor)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


def logits_and_values(policy, observations):
    """Raw action logits and state values in one pass of the (shared or separate) feature extractors."""
    features = policy.extract_features(observations)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(1)


def imitate(model, samples: int, players: list[int], num_games: int = 64, epochs: int = 2,
            batch_size: int = 256, random_share: float = 0.2, lr: float = 1e-3, seed: int = 0, reward: str = "score",
            value_coef: float = 0.5, temperature: float = 0.0, teacher: str = "greedy", hints: str = "none",
            log=print, expansions=None, rules=None) -> dict:
    """Maximise the policy's probability of the teacher's best set and fit the value head to the outcomes.

    The loss is the set cross-entropy (or, with `temperature` > 0, the cross-entropy to
    softmax(teacher values / temperature), which also ranks the non-best actions) plus `value_coef`
    times the value MSE. The games play the ruleset of `expansions` and `rules` (the model's spaces must
    match it). Returns the final accuracy (argmax inside the best set) and value loss.
    """
    import torch

    from .networks import flush_denormals

    flush_denormals()
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    device = policy.device
    accuracy = 0.0
    seen = 0
    value_loss = 0.0
    for obs, masks, labels, outcomes, values in imitation_batches(num_games, players, samples, random_share, seed,
                                                                  reward, teacher, hints, expansions, rules):
        if obs.shape[1:] != policy.observation_space.shape or masks.shape[1] != policy.action_space.n:
            raise ValueError(f"imitation: the games give observations {obs.shape[1:]} and {masks.shape[1]} actions, "
                             f"the policy takes {policy.observation_space.shape} and {policy.action_space.n}; "
                             f"pass the ruleset (expansions, rules) and hints the model was made for")
        for _ in range(epochs):
            order = np.random.default_rng(seen).permutation(len(labels))
            correct = 0
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                o = torch.as_tensor(obs[idx], device=device)
                m = torch.as_tensor(masks[idx], device=device, dtype=torch.bool)
                best = torch.as_tensor(labels[idx], device=device, dtype=torch.bool)
                target = torch.as_tensor(outcomes[idx], device=device)
                logits, value = logits_and_values(policy, o)
                policy_loss, hits = set_cross_entropy(logits, m, best)
                if temperature > 0:
                    policy_loss = soft_cross_entropy(logits, m, torch.as_tensor(values[idx], device=device),
                                                     temperature)
                v_loss = torch.nn.functional.mse_loss(value, target)
                loss = policy_loss + value_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
                correct += float(hits) * len(idx)
                value_loss = float(v_loss.detach())
            accuracy = correct / len(order)
        seen += len(labels)
        log(f"  imitation: {seen} samples, accuracy {accuracy:.3f}, value loss {value_loss:.4f}")
    return {"samples": seen, "accuracy": accuracy, "value_loss": value_loss}
