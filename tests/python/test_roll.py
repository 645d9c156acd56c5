"""alea.roll, alea.stats and alea.Error, compared with what the alea program prints."""

import json
import pickle
from fractions import Fraction

import pytest

import alea


def test_seeded_roll_matches_the_program(alea_cli):
    printed = alea_cli("roll", "--seed", "42", "--json", "4d6kh3")
    assert printed.returncode == 0, printed.stderr
    document = json.loads(printed.stdout)
    r = alea.roll("4d6kh3", seed=42)
    assert r.value == document["value"]
    assert [(d.face, d.kind, d.fate) for d in r.dice] == [(d["face"], d["die"], d["fate"]) for d in document["dice"]]
    assert [d.fate for d in r.dice].count("dropped") == 1
    text = alea_cli("roll", "--seed", "42", "4d6kh3")
    assert r.breakdown == text.stdout.rstrip("\n")
    assert r.json["value"] == document["value"] and r.json["schema"] == "alea.roll/1"
    assert r.seed == 42


def test_a_ruleset_the_expression_names_is_loaded(alea_cli):
    printed = alea_cli("roll", "--seed", "7", "--json", "heroes_mythos.check(dice: 3, red: 1)")
    assert printed.returncode == 0, printed.stderr
    r = alea.roll("heroes_mythos.check(dice: 3, red: 1)", seed=7)
    assert r.value == json.loads(printed.stdout)["value"]
    with pytest.raises(alea.Error) as e:
        alea.roll("nowhere_at_all.check(dice: 3)")
    assert e.value.code != "RulesetNotFound"  # not a ruleset: the compiler's error about the name


def test_scripted_dice():
    r = alea.roll("4d6kh3", dice=[4, 4, 6, 3])
    assert r.value == 14
    assert r.breakdown == "4d6kh3 → 4 4 6 ~3~ = 14"
    assert r.dice[3] == alea.Die(3, "d6", "dropped")
    assert r.seed is None


def test_values_become_python_data():
    assert alea.roll("3d6 >= 12", dice=[4, 5, 2]).value is False
    assert alea.roll('"hit"').value == "hit"
    assert alea.roll("[1, 2, 3]").value == [1, 2, 3]
    record = alea.roll("{b: 1, a: [true, none]}").value
    assert record == {"b": 1, "a": [True, None]} and list(record) == ["b", "a"]
    assert alea.roll("2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit }", dice=[3, 5]).value == "partial"


def test_exact_stats_are_fractions():
    d = alea.stats("3d6")
    assert d.exact
    assert all(isinstance(p, Fraction) for _, p in d.entries)
    assert sum(p for _, p in d.entries) == 1
    assert d[10] == Fraction(27, 216)
    assert d.mean == Fraction(21, 2)
    assert list(d)[0] == 3 and list(d)[-1] == 18
    assert d.json["schema"] == "alea.stats/1"
    assert d.unresolved == 0


def test_record_stats_have_fields():
    d = alea.stats("let r = 1d6 in {high: r >= 4, face: r}")
    assert d.fields["high"][True] == Fraction(1, 2)
    assert d.fields["face"].mean == Fraction(7, 2)


def test_an_error_has_its_code_and_place():
    with pytest.raises(alea.Error) as caught:
        alea.roll("4d6 kh3 + 2")
    e = caught.value
    assert (e.code, e.file, e.line, e.column) == ("UnexpectedText", "<input>", 1, 5)
    assert "unexpected text after the expression" in e.message
    assert e.rendered.startswith("<input>:1:5: error:") and "^~~" in e.rendered
    assert e.json["code"] == "UnexpectedText"
    assert str(e).startswith("<input>:1:5")
    again = pickle.loads(pickle.dumps(e))
    assert (again.code, again.line, again.column, again.rendered) == (e.code, 1, 5, e.rendered)


def test_limits_are_kept_and_named(alea_cli):
    printed = alea_cli("roll", "--json", "1000000d6")
    code = json.loads(printed.stdout)["error"]["code"]
    with pytest.raises(alea.Error) as caught:
        alea.roll("1000000d6")
    assert caught.value.code == code
    small = alea.Engine(limits={"max_dice": 10})
    assert small.limits["max_dice"] == 10
    with pytest.raises(alea.Error) as caught:
        small.roll("11d6", seed=1)
    assert caught.value.code == code and "max_dice" in caught.value.rendered
    assert alea.limits()["max_dice"] > 10


def test_wrong_arguments_are_refused_by_name():
    with pytest.raises(TypeError, match="sed"):
        alea.roll("1d6", sed=1)
    with pytest.raises(ValueError, match="max_dise"):
        alea.Engine(limits={"max_dise": 1})
    with pytest.raises(ValueError, match="max_dice"):
        alea.Engine(limits={"max_dice": -1})
    with pytest.raises(ValueError, match="seed"):
        alea.roll("1d6", seed=-1)
    with pytest.raises(TypeError, match="seed"):
        alea.roll("1d6", seed="1")
    with pytest.raises(ValueError, match="one or the other"):
        alea.roll("1d6", seed=1, dice=[3])
    with pytest.raises(TypeError, match=r"dice\[1\]"):
        alea.roll("2d6", dice=[3, "4"])
    with pytest.raises(TypeError, match="state"):
        alea.roll("1d6", state=[1])
    with pytest.raises(ValueError, match="samples"):
        alea.stats("1d6", samples=0)


def test_unused_dice_are_an_error():
    with pytest.raises(alea.Error) as caught:
        alea.roll("1d6", dice=[3, 4])
    assert caught.value.code == "ScriptedDiceUnused"
    assert "not used (4)" in caught.value.message
