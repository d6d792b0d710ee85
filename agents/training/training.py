"""Self-play training with MaskablePPO on the batch engine: checkpoints, snapshots, evaluation, model card.

`kbenv train --config configs/quick.yaml` runs `train(config)`. The run folder (out_dir/name) holds:
`model.zip` (final), `checkpoints/step_N.zip`, `snapshots/` (frozen opponents), `tb/` (TensorBoard),
`eval.csv` and `eval.png` (win rates and rating against the evaluation baselines over training),
`progress.json` (for `--resume`), and `model_card.json` / `model_card.md`.

A config with `expansions` or `rules` trains on that ruleset: the self-play env, the imitation games, the
guide and the evaluation tournaments all play it, the network reads observation v1 and has the v1 action
layout, the policy kwargs record the ruleset (agents.ppo reads it back) and the model card names it.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import time
import warnings
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .config import TrainConfig

PROGRESS = "progress.json"


def pick_device(requested: str) -> str:
    """'cpu' or 'cuda' for the config's device; asking for cuda without a CUDA torch is a ValueError."""
    import torch

    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device 'cuda': this torch ({torch.__version__}) sees no CUDA device; use cpu or auto")
    return requested


def device_name(device) -> str:
    """The torch device a model runs on, as 'cpu' or 'cuda:0' (the CUDA index resolved)."""
    import torch

    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        return f"cuda:{torch.cuda.current_device()}"
    return str(device)


class EvalRow(BaseModel):
    """One evaluation result in progress.json (and a row of eval.csv)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    timesteps: int = Field(ge=0)
    opponent: str
    win_share: float
    ci95: list[float] = Field(min_length=2, max_length=2)
    mean_gold: float
    rating_mu: float


class Progress(BaseModel):
    """What progress.json holds for `--resume`."""

    model_config = ConfigDict(strict=True, extra="forbid")
    timesteps: int = Field(ge=0)
    checkpoint: str = Field(min_length=1)
    snapshots: list[str] = []
    eval: list[EvalRow] = []
    wall_seconds: float = Field(ge=0)
    imitation: dict | None = None
    stopped_early: bool = False


def load_progress(path: Path) -> dict:
    """The resume state in progress.json; a corrupt file gives a ValueError naming it and the problem."""
    hint = "fix or delete it to start the run afresh"
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ValueError(f"{path}: cannot read the resume state ({type(err).__name__}: {err}); {hint}") from None
    try:
        progress = Progress.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg']}" for e in err.errors()[:5])
        raise ValueError(f"{path}: not a valid resume state ({problems}); {hint}") from None
    state = progress.model_dump()
    state.pop("stopped_early")  # this session decides whether it stops early
    for name in [state["checkpoint"], *state["snapshots"]]:
        if not Path(name).is_file():
            raise ValueError(f"{path}: names the model file {name}, which does not exist; {hint}")
    return state


def load_model(loader, path: str, what: str, **kwargs):
    """`loader(path, **kwargs)`, any failure (corrupt zip, other observation space ...) a ValueError naming it."""
    try:
        return loader(path, **kwargs)
    except Exception as err:  # SB3 and torch raise many kinds for a bad file
        raise ValueError(f"{path}: cannot load the {what} ({type(err).__name__}: {err})") from err


class SnapshotPolicy:
    """A frozen copy of the learner as a batched opponent: f(observations, masks) -> actions."""

    def __init__(self, path: str, device: str):
        from sb3_contrib import MaskablePPO

        self.path = path
        self.model = load_model(MaskablePPO.load, path, "snapshot", device=device)

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = self.model.predict(observations, action_masks=masks.astype(bool), deterministic=False)
        return np.asarray(actions, dtype=np.int64)


def make_env(config: TrainConfig, seed: int):
    from kbenv.envs.vector_env import SelfPlayVecEnv

    return SelfPlayVecEnv(config.n_envs, num_players=config.players, opponents=list(config.opponents),
                          reward=config.reward, seed=seed, hints=config.hints, **config.ruleset())


def make_model(config: TrainConfig, env, run_dir: Path, device: str):
    from .guide import GuidedMaskablePPO
    from .networks import KingdomBuilderExtractor, KingdomBuilderPolicy

    policy_kwargs = {
        "features_extractor_class": KingdomBuilderExtractor,
        "features_extractor_kwargs": {"channels": config.channels, "blocks": config.blocks,
                                      "head_channels": config.head_channels,
                                      "board_planes": config.board_planes, "context": config.context,
                                      "hints": config.hints, "expansions": list(config.expansions),
                                      "rules": list(config.rules)},
        "net_arch": {"pi": [], "vf": list(config.vf_layers)},
    }
    tensorboard = str(run_dir / "tb") if _has_tensorboard() else None
    return GuidedMaskablePPO(
        KingdomBuilderPolicy, env, learning_rate=config.learning_rate, n_steps=config.n_steps,
        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma, gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef,
        clip_range=config.clip_range, policy_kwargs=policy_kwargs, tensorboard_log=tensorboard, seed=config.seed,
        device=device, verbose=0,
    )


def _has_tensorboard() -> bool:
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return False
    return True


def evaluate(model_path: str, config: TrainConfig, out_dir: Path, seed: int) -> dict:
    """2-player games of the model against each evaluation baseline (tournament code, seats rotated), in the
    config's ruleset (no set-up options for the base game)."""
    from ..evaluation.tournament import run_tournament

    spec = f"ppo:path={model_path}"
    setup = config.ruleset() or None
    results = {}
    for opponent in config.eval_opponents:
        folder = out_dir / f"vs_{opponent}"
        shutil.rmtree(folder, ignore_errors=True)  # each evaluation is a fresh tournament of the current model
        summary = run_tournament([spec, opponent], [2], games=config.eval_games, seed=seed,
                                 out_dir=str(folder), setup=setup, progress=False)
        block = summary["by_players"]["2"]
        results[opponent] = {"win_share": block["seats"][spec]["win_share"],
                             "ci95": block["seats"][spec]["win_share_ci95"],
                             "mean_gold": block["seats"][spec]["mean_gold"],
                             "rating_mu": block["ratings"][spec]["mu"]}
    return results


def plot_eval(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    opponents = sorted({r["opponent"] for r in rows})
    for opp in opponents:
        sel = [r for r in rows if r["opponent"] == opp]
        steps = [r["timesteps"] for r in sel]
        axes[0].plot(steps, [r["win_share"] for r in sel], marker="o", label=f"vs {opp}")
        axes[1].plot(steps, [r["rating_mu"] for r in sel], marker="o", label=f"vs {opp}")
    axes[0].axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes[0].set_ylim(0, 1)
    axes[0].set_title("win share in 2-player games")
    axes[1].set_title("openskill rating (mu) in those games")
    for ax in axes:
        ax.set_xlabel("environment steps")
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def train(config: TrainConfig, resume: bool = False, progress: bool = True, log=print) -> dict:
    """Train (or resume) a run; returns the model card."""
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from .networks import flush_denormals

    flush_denormals()
    run_dir = make_run_dir(config)
    device = pick_device(config.device)
    state = {"timesteps": 0, "snapshots": [], "eval": [], "wall_seconds": 0.0}
    progress_path = run_dir / PROGRESS
    env = VecMonitor(make_env(config, config.seed))
    started = time.perf_counter()

    def save_progress(checkpoint: str, steps: int) -> None:
        state["timesteps"] = steps
        state["checkpoint"] = checkpoint
        state["wall_seconds"] = state.get("wall_before", 0.0) + time.perf_counter() - started
        progress_path.write_text(json.dumps({k: v for k, v in state.items() if k != "wall_before"}, indent=2))

    def run_eval(model_path: str, steps: int) -> None:
        results = evaluate(model_path, config, run_dir / "eval" / f"step_{steps}", seed=config.seed + steps)
        for opp, r in results.items():
            state["eval"].append({"timesteps": steps, "opponent": opp, **r})
            log(f"  eval at {steps} steps: vs {opp} win share {r['win_share']:.3f} "
                f"[{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}], rating {r['rating_mu']:.1f}")
        with open(run_dir / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["timesteps", "opponent", "win_share", "ci95", "mean_gold", "rating_mu"])
            w.writeheader()
            w.writerows(state["eval"])
        plot_eval(state["eval"], run_dir / "eval.png")

    resumed = resume and progress_path.exists()
    if resume and not resumed:
        log(f"no {progress_path} to resume from: starting {config.name} afresh")
    if resumed:
        from .guide import GuidedMaskablePPO

        state = load_progress(progress_path)
        state["wall_before"] = state["wall_seconds"]
        model = load_model(GuidedMaskablePPO.load, state["checkpoint"], "checkpoint", env=env, device=device)
        check_ruleset(model, config, state["checkpoint"])
        for snap in state["snapshots"]:
            env.venv.opponents.append(SnapshotPolicy(snap, device))
        log(f"resuming {config.name} at {state['timesteps']} steps from {state['checkpoint']}")
    else:
        model = make_model(config, env, run_dir, device)
        if config.imitation_samples:
            from .imitation import imitate

            log(f"imitating {config.teacher} on {config.imitation_samples} decisions")
            t0 = time.perf_counter()
            with ImitationProgress(config.imitation_samples, log, progress) as on_line:
                state["imitation"] = imitate(model, config.imitation_samples, config.players,
                                             num_games=imitation_games(config.imitation_samples),
                                             epochs=config.imitation_epochs, lr=config.imitation_lr,
                                             seed=config.seed, reward=config.reward,
                                             temperature=config.imitation_temperature,
                                             teacher=config.teacher, hints=config.hints, log=on_line,
                                             **config.ruleset())
            state["imitation"]["seconds"] = round(time.perf_counter() - t0, 1)
            if config.eval_every:
                path = str(run_dir / "checkpoints" / "step_0.zip")
                model.save(path)
                run_eval(path, 0)
    (run_dir / "config.json").write_text(json.dumps(config.to_dict(), indent=2))
    start_steps = state["timesteps"]

    class Hooks(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_checkpoint = start_steps + config.checkpoint_every if config.checkpoint_every else None
            self.next_eval = start_steps + config.eval_every if config.eval_every else None
            self.next_snapshot = start_steps + config.snapshot_every if config.snapshot_every else None

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps  # counts on from the checkpoint when resuming
            if config.max_minutes and time.perf_counter() - t0 > 60 * config.max_minutes:
                state["stopped_early"] = True
                return False
            if steps >= config.total_timesteps:
                return True  # the last rollout: the final save and evaluation follow learn()
            if (self.next_checkpoint and steps >= self.next_checkpoint) or (self.next_eval and steps >= self.next_eval):
                path = str(run_dir / "checkpoints" / f"step_{steps}.zip")
                self.model.save(path)
                save_progress(path, steps)
                if self.next_checkpoint:
                    self.next_checkpoint = steps + config.checkpoint_every
                if self.next_eval and steps >= self.next_eval:
                    run_eval(path, steps)
                    self.next_eval = steps + config.eval_every
            if self.next_snapshot and steps >= self.next_snapshot:
                snap = str(run_dir / "snapshots" / f"step_{steps}.zip")
                self.model.save(snap)
                state["snapshots"] = (state["snapshots"] + [snap])[-config.pool_size:]
                pool = env.venv.opponents
                baselines = [o for o in pool if isinstance(o, str)]
                pool[:] = baselines + [SnapshotPolicy(s, device) for s in state["snapshots"]]
                self.next_snapshot = steps + config.snapshot_every
            return True

    remaining = config.total_timesteps - start_steps
    callbacks = [Hooks()]
    if config.guide_coef > 0:
        from .guide import TeacherLabels

        model.guide = TeacherLabels(env.venv, config.teacher)
        model.guide_coef, model.guide_coef_final = config.guide_coef, config.guide_coef_final
        model.guide_total_steps = config.total_timesteps
        callbacks.append(model.guide)
    t0 = time.perf_counter()
    if remaining > 0:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="rich is experimental")  # tqdm.rich, SB3's progress bar
            if progress_bar(progress, log):
                callbacks.append(StepProgress(start_steps, config.total_timesteps))
            model.learn(total_timesteps=remaining, callback=callbacks, progress_bar=False,
                        reset_num_timesteps=not resumed, tb_log_name=config.name)
    train_seconds = time.perf_counter() - t0
    final_steps = int(model.num_timesteps)  # whole rollouts: may pass total_timesteps by up to one
    final = str(run_dir / "model.zip")
    model.save(final)
    if not state["eval"] or state["eval"][-1]["timesteps"] != final_steps:
        run_eval(final, final_steps)
    save_progress(final, final_steps)  # after the final evaluation, so a resumed run keeps it
    card = {
        "name": config.name,
        "model": final,
        "config": config.to_dict(),
        "ruleset": {"expansions": list(config.expansions), "rules": list(config.rules)},
        "timesteps": final_steps,
        "stopped_early": bool(state.get("stopped_early")),
        "wall_seconds": round(state["wall_seconds"], 1),
        "device": device_name(model.device),
        "device_requested": config.device,
        "env_steps_per_second": round((final_steps - start_steps) / train_seconds, 1)
        if final_steps > start_steps and train_seconds else None,
        "evaluation": [r for r in state["eval"] if r["timesteps"] == final_steps],
        "evaluation_history": state["eval"],
        "imitation": state.get("imitation"),
    }
    (run_dir / "model_card.json").write_text(json.dumps(card, indent=2))
    (run_dir / "model_card.md").write_text(model_card_markdown(card))
    return card


IMITATION_GAMES = 64  # games per chunk of imitation samples
DECISIONS_PER_GAME = 100  # about the fewest decisions of a game (2 players, base game)


def imitation_games(samples: int) -> int:
    """Games per imitation chunk: 64, or fewer for a few hundred samples (a chunk plays whole games)."""
    return max(1, min(IMITATION_GAMES, -(-samples // DECISIONS_PER_GAME)))


def model_ruleset(model) -> dict:
    """The ruleset a saved model was trained on, from its policy kwargs (empty lists: the base game)."""
    kwargs = (getattr(model, "policy_kwargs", None) or {}).get("features_extractor_kwargs", {})
    return {"expansions": list(kwargs.get("expansions", [])), "rules": list(kwargs.get("rules", []))}


def check_ruleset(model, config: TrainConfig, path: str) -> None:
    """Refuse to resume a checkpoint of another ruleset (same observation shapes would not catch it)."""
    trained = model_ruleset(model)
    for key in ("expansions", "rules"):
        if set(trained[key]) != set(getattr(config, key)):
            raise ValueError(f"field {key!r}: the checkpoint {path} was trained with {key} {trained[key]}, "
                             f"the config asks for {list(getattr(config, key))}; resume with the same ruleset "
                             f"or start a new run")


def make_run_dir(config: TrainConfig) -> Path:
    """out_dir/name with its checkpoints/, snapshots/ and eval/ folders; failures name the folder."""
    run_dir = Path(config.out_dir) / config.name
    try:
        for sub in ("checkpoints", "snapshots", "eval"):
            (run_dir / sub).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"out_dir: cannot create the run folder {run_dir} ({err.strerror or err})") from None
    return run_dir


def progress_bar(progress: bool, log) -> bool:
    """Whether SB3 can show its progress bar (it needs tqdm and rich); says so when it cannot."""
    if not progress:
        return False
    if not _has_rich():
        log("no progress bar: install tqdm and rich (pip install 'kbenv[train]')")
        return False
    return True


def _has_rich() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def StepProgress(start: int, total: int):
    """A tqdm bar over PPO's environment steps (rate and time left), also where stdout is no terminal
    (SB3's own bar, drawn by rich, shows nothing there)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class _StepProgress(BaseCallback):
        def _on_training_start(self) -> None:
            self.bar = tqdm(total=total, initial=start, desc="PPO", unit="steps")

        def _on_step(self) -> bool:
            self.bar.update(max(0, min(total, self.model.num_timesteps) - self.bar.n))
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return _StepProgress()


class ImitationProgress:
    """A log for `imitate()`: with progress on, a tqdm bar over the samples, fed by its "N samples" lines.

    The bar replaces the per-chunk lines; the last line goes to `log` when the bar closes.
    """

    def __init__(self, total: int, log, enabled: bool):
        self.total, self.log, self.enabled = total, log, enabled
        self.bar = None
        self.last: str | None = None

    def __enter__(self):
        if not self.enabled:
            return self.log
        from tqdm import tqdm

        self.bar = tqdm(total=self.total, desc="imitation", unit="samples")
        return self.line

    def line(self, text: str) -> None:
        match = re.search(r"(\d+) samples,?(.*)", text)
        if match:
            self.bar.update(max(0, min(self.total, int(match.group(1))) - self.bar.n))
            self.bar.set_postfix_str(match.group(2).strip())
        self.last = text

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()
            if self.last is not None:
                self.log(self.last)


def ruleset_text(ruleset: dict) -> str:
    """'base game', or 'expansions nomads, caves; rules ...' for the model card."""
    parts = [f"{key} {', '.join(ruleset[key])}" for key in ("expansions", "rules") if ruleset.get(key)]
    return "; ".join(parts) if parts else "base game"


def model_card_markdown(card: dict) -> str:
    c = card["config"]
    lines = [
        f"# Model card: {card['name']}",
        "",
        f"- Model: `{card['model']}` (sb3-contrib MaskablePPO, residual CNN {c['channels']} channels x "
        f"{c['blocks']} blocks, convolutional hex-action head)",
        f"- Trained for {card['timesteps']:,} environment steps in {card['wall_seconds']:,} s on {card['device']}"
        + (f" ({card['env_steps_per_second']:,} steps/s)" if card["env_steps_per_second"] else ""),
        f"- Players: {c['players']}; opponents: {c['opponents']}"
        + (f" plus snapshots every {c['snapshot_every']:,} steps" if c["snapshot_every"] else ""),
        f"- Reward: {c['reward']}; seed {c['seed']}",
        f"- Ruleset: {ruleset_text(card.get('ruleset') or {})}",
        "",
        "## Evaluation (2-player games in this ruleset, seats rotated, `kbenv tournament` code)",
        "",
        "| opponent | win share | 95% CI | mean gold | rating |",
        "|---|---|---|---|---|",
    ]
    for r in card["evaluation"]:
        lines.append(f"| {r['opponent']} | {r['win_share']:.3f} | [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | "
                     f"{r['mean_gold']:.1f} | {r['rating_mu']:.1f} |")
    lines += ["", "Configuration: see `config.json`; learning curve: `eval.png`; TensorBoard logs: `tb/`.", ""]
    return "\n".join(lines)
