"""`openings --race` and `analyse --race` refuse bad input with one message, exit 2, and
write nothing."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "results" / "ireland-beam100-seed0.json"
ONE = "CUT_PEAT 0 0; COMMIT\n# the same opening again:\nCUT_PEAT 0 0 ; COMMIT\n"


@pytest.mark.parametrize("args, message", [
    (["openings", "--variant", "ireland", "--file", "{one}", "--race"],
     "--race needs at least two candidates (there is one)"),
    (["openings", "--variant", "ireland", "--turns", "1", "--race", "--budget", "0"],
     "Invalid value for '--budget': 0 is not in the range x>=1"),
    (["openings", "--variant", "ireland", "--turns", "1", "--race", "--budget", "-5"],
     "Invalid value for '--budget': -5 is not in the range x>=1"),
    (["openings", "--variant", "ireland", "--turns", "1", "--race", "--beam", "8",
      "--budget", "149"],
     "--budget 149 is too small for the first round: 25 candidates x 3 seeds at width 2 "
     "cost 150 (width x seeds units)"),
    (["openings", "--variant", "ireland", "--turns", "1", "--budget", "500"],
     "--budget is the budget of a race: give --race too"),
    (["openings", "--variant", "ireland", "--turns", "1", "--ladder", "width"],
     "--ladder is how a race grows: give --race too"),
    (["openings", "--variant", "ireland", "--turns", "1", "--race", "--ladder", "depth"],
     "Invalid value for '--ladder': 'depth' is not one of 'both', 'width'"),
    (["analyse", "--from", str(RECORD), "--moves", "244", "--race"],
     "--race with --top 10: the 6 candidates are already at most that many"),
])
def test_bad_race_input_exits_2_and_writes_nothing(tmp_path, args, message):
    one = tmp_path / "one.txt"
    one.write_text(ONE)
    args = [str(one) if a == "{one}" else a for a in args]
    res = CliRunner().invoke(main, args + ["--out", str(tmp_path / "x.json")])
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())
    assert [p.name for p in tmp_path.iterdir()] == ["one.txt"]
    assert res.output.count(message.split(":")[0]) == 1  # one message
