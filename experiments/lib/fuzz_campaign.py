"""A fuzz campaign's state between runs, so one campaign of the same programs on the same code
can be checked in several sittings (``experiments/fuzz.py --state FILE``).

A campaign of 10,000 programs with every compiled stage takes about 12 hours of a 2-core
machine. The state file holds what a run needs to go on where the last one stopped: the
settings that choose the programs (seed, count, batch size, ops per program, quick), the commit
whose code is checked, the programs done, the seconds spent, the coverage tally and every
finding. A run that would check other programs or other code refuses to resume it, since the
figures would then describe neither.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.lib.fuzz_tally import Tally

VERSION = 1


class CampaignError(Exception):
    """A state file that cannot be resumed by this run (the message says why)."""


@dataclass
class Campaign:
    settings: dict[str, Any]  # seed, n, batch, max_ops, quick: they choose the programs
    commit: str
    done: int = 0
    seconds: float = 0.0
    tally: Tally = field(default_factory=Tally)
    findings: list[dict[str, Any]] = field(default_factory=list)

    def save(self, path: Path) -> None:
        """Write the state atomically (a run killed mid-write leaves the last state)."""
        data = {"version": VERSION, "settings": self.settings, "commit": self.commit,
                "done": self.done, "seconds": self.seconds, "tally": self.tally.to_json(),
                "findings": self.findings}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def start_or_resume(path: Path, settings: dict[str, Any], commit: str | None,
                    dirty: bool) -> Campaign:
    """The campaign in ``path`` if it checks these programs on this code, a new one if the
    file does not exist; otherwise a ``CampaignError`` naming the difference."""
    if commit is None or dirty:
        raise CampaignError(f"{path}: a resumable campaign checks one commit, and this "
                            "checkout " + ("has uncommitted changes" if commit else
                                           "is not a git checkout") +
                            ": commit them, or run from a clean worktree at the commit to check")
    if not path.exists():
        return Campaign(settings=dict(settings), commit=commit)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION:
            raise CampaignError(f"{path}: state version {data.get('version')!r}, this "
                                f"fuzzer writes {VERSION}")
        campaign = Campaign(settings=data["settings"], commit=data["commit"],
                            done=int(data["done"]), seconds=float(data["seconds"]),
                            tally=Tally.from_json(data["tally"]), findings=list(data["findings"]))
    except CampaignError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise CampaignError(f"{path}: not a fuzz campaign state file ({e})") from e
    if campaign.commit != commit:
        raise CampaignError(f"{path}: the campaign checks commit {campaign.commit[:12]}, this "
                            f"checkout is {commit[:12]}: resume it from a worktree at "
                            f"{campaign.commit[:12]} (git worktree add --detach DIR "
                            f"{campaign.commit[:12]})")
    differ = [f"--{k.replace('_', '-')} {campaign.settings.get(k)!r} (now {v!r})"
              for k, v in settings.items() if campaign.settings.get(k) != v]
    if differ:
        raise CampaignError(f"{path}: the campaign was started with other programs: "
                            + ", ".join(differ))
    return campaign
