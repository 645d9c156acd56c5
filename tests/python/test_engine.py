"""alea.Engine: rulesets, mechanic calls with state, threads."""

import json
import signal
import threading
import time

import pytest

import alea

BAD_YAML = """\
name: broken
mechanics:
  check: a: b
"""


def test_a_mechanic_call_matches_the_program(alea_cli):
    printed = alea_cli("roll", "heroes-mythos.check", "dice=5", "red=1", "--seed", "7", "--json")
    assert printed.returncode == 0, printed.stderr
    document = json.loads(printed.stdout)
    engine = alea.Engine()
    r = engine.call("heroes-mythos.check", dice=5, red=1, seed=7)
    assert r.value == document["value"]
    assert list(r.value) == list(document["value"])  # a record's fields, in order
    assert [(d.face, d.fate) for d in r.dice] == [(d["face"], d["fate"]) for d in document["dice"]]
    assert "heroes-mythos" in engine.rulesets()


def test_state_goes_in_and_comes_out():
    engine = alea.Engine()
    hero = {"pbta-superiority": {"superiority": 1}}
    r = engine.call("pbta-superiority.increase", n=3, state=hero)
    assert r.state == {"pbta-superiority": {"superiority": 4}}
    assert hero == {"pbta-superiority": {"superiority": 1}}  # the dict given is left alone
    with pytest.raises(alea.Error) as caught:
        engine.call("pbta-superiority.increase", n=1, state={"pbta-superiority": {"superiority": 9}})
    assert caught.value.code == "StateInvalid" and "superiority" in caught.value.message


def test_record_arguments_are_dicts(alea_cli):
    printed = alea_cli("roll", "strategiya.combat_damage", "attacker.str=4", "attacker.mount=dragon",
                       "--seed", "3", "--json")
    assert printed.returncode == 0, printed.stderr
    r = alea.Engine().call("strategiya.combat_damage", attacker={"str": 4, "mount": "dragon"}, seed=3)
    assert r.value == json.loads(printed.stdout)["value"]


def test_call_mistakes_are_errors():
    engine = alea.Engine()
    with pytest.raises(alea.Error) as caught:
        engine.call("heroes-mythos.chek", dice=3)
    assert caught.value.code in ("UnknownFunction", "UnknownName")
    with pytest.raises(alea.Error) as caught:
        engine.call("heroes-mythos.check", dice=3, bogus=1)
    assert caught.value.code == "UnknownArgument" and "bogus" in caught.value.message
    with pytest.raises(alea.Error) as caught:
        engine.call("no-such-game.check")
    assert caught.value.code == "RulesetNotFound"
    with pytest.raises(TypeError, match="'red'"):
        engine.call("heroes-mythos.check", dice=3, red=object())
    with pytest.raises(ValueError, match="RULESET.MECHANIC"):
        engine.call("heroes-mythos", dice=3)


def test_a_string_cannot_change_the_call():
    # The text is a value, bound to a variable: never read as the language.
    with pytest.raises(alea.Error) as caught:
        alea.Engine().call("heroes-mythos.check", dice="3) + (100")
    assert caught.value.code != "UnexpectedText"
    assert "100" not in (caught.value.file or "")


def test_a_bad_ruleset_is_an_error_with_its_place():
    engine = alea.Engine()
    with pytest.raises(alea.Error) as caught:
        engine.load_ruleset_text(BAD_YAML, "broken.yaml")
    e = caught.value
    assert (e.code, e.file, e.line, e.column) == ("RulesetSyntax", "broken.yaml", 3, 10)
    assert e.rendered.startswith("broken.yaml:3:10: error: this is not valid YAML")
    assert engine.rulesets() == []


def test_describe():
    mechanic = alea.Engine().describe("heroes-mythos.check")
    assert mechanic["schema"] == "alea.describe/1"
    assert "dice" in json.dumps(mechanic)


def test_call_stats():
    d = alea.Engine().call_stats("heroes-mythos.check", dice=2)
    assert d.exact and "success" in d.fields


SLOW = "faces(3d6)[0] + 40d10kh20"  # sampled: 40d10 has too many outcomes to enumerate


def test_the_gil_is_released_during_stats():
    engine = alea.Engine()
    window = {}
    ticks = []

    def work():
        window["start"] = time.monotonic()
        window["stats"] = engine.stats(SLOW, seed=1, samples=200_000, threads=1)
        window["end"] = time.monotonic()

    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        ticks.append(time.monotonic())
        time.sleep(0.002)
    worker.join()
    assert not window["stats"].exact
    # Held, the GIL would let this thread run no Python at all while the worker is inside
    # alea: none of its ticks would fall within the call, away from its ends.
    inside = [t for t in ticks if window["start"] + 0.02 < t < window["end"] - 0.02]
    assert len(inside) >= 3, (len(ticks), window["end"] - window["start"])


def stopped_by_ctrl_c(work):
    """Whether Ctrl-C 0.3 s into work() stops it with KeyboardInterrupt, within seconds."""
    main = threading.get_ident()
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        work()
    timer.cancel()
    assert time.monotonic() - began < 5


def test_ctrl_c_stops_a_sampling():
    stopped_by_ctrl_c(lambda: alea.Engine().stats(SLOW, seed=1, samples=50_000_000, threads=1))


# Hopeless in any time: composing it passes max_odds_work after seconds.
HOPELESS = ("let a = 10d10kh3 in let b = 10d10kh3 in let c = 10d10kh3 in let d = 10d10kh3 in "
            "let e = 10d10kh3 in let f = 10d10kh3 in [a, b, c, d, e, f]")


def test_a_time_limit_bounds_the_exact_attempt():
    engine = alea.Engine()
    d = engine.stats(HOPELESS, seed=1, samples=100, threads=1, time_limit=0.2)
    assert not d.exact
    with pytest.raises(alea.Error, match=r"takes more than 0\.2 s \(time_limit\)"):
        engine.stats(HOPELESS, exact_only=True, time_limit=0.2)
    with pytest.raises(ValueError, match="time_limit must be more than 0"):
        engine.stats("3d6", time_limit=-1)
    with pytest.raises(TypeError, match="time_limit must be a number of seconds"):
        engine.stats("3d6", time_limit="1")


def test_ctrl_c_stops_an_exact_attempt_with_no_time_limit():
    stopped_by_ctrl_c(lambda: alea.Engine().stats(HOPELESS, exact_only=True))
