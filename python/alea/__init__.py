"""alea, a dice-and-rules language for tabletop games, from Python (docs/python.md).

    >>> import alea
    >>> alea.roll("4d6kh3", seed=42).value
    11

The work is done by the C++ library, in the extension module alea._alea; this package turns
what it returns into Python objects: exact probabilities as fractions.Fraction, errors as
alea.Error.
"""

import json as _json
import os as _os
from fractions import Fraction
from typing import NamedTuple


class Error(Exception):
    """An input alea refused: a syntax error, an unknown name, a limit reached, a bad ruleset.

    code      the diagnostic's stable code: "UnexpectedText", "DiceLimitExceeded"
    message   the message alone, lower case, without its place
    file      where it is: "<input>", a ruleset's file; None when it has no place
    line      1-based line, or None
    column    1-based column, or None
    rendered  the whole error as the command line prints it: place, message, caret, notes
    json      the error as the JSON object alea's documents hold (docs/json.md), a dict
    """

    def __init__(self, code, message, file=None, line=None, column=None, rendered="", json=None):
        super().__init__(rendered.rstrip("\n") if rendered else f"{message} [{code}]")
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.rendered = rendered
        self._json = json

    @property
    def json(self):
        return _json.loads(self._json) if self._json else None

    def __reduce__(self):  # pickled whole, for multiprocessing
        return (Error, (self.code, self.message, self.file, self.line, self.column, self.rendered, self._json))


from . import _alea  # noqa: E402  (after Error, which the module raises)

__version__ = _alea.version()

# The rulesets installed with this package (pip install); in a build tree there are none here
# and the library finds the source tree's.
_RULESETS = _os.path.join(_os.path.dirname(__file__), "rulesets")


class Die(NamedTuple):
    """One die rolled: its face, its kind ("d6", "dF") and its fate ("kept", "dropped",
    "rerolled", "cancelled", "failed", "added"), as the C API names them."""

    face: int
    kind: str
    fate: str


class Result:
    """A roll: .value, .dice, .breakdown (the text `alea roll` prints), .json (the alea.roll/1
    document, a dict), .state (the rulesets' state after the roll, a dict, or None) and .seed
    (the seed the dice came from; None for scripted dice)."""

    def __init__(self, roll):
        self._roll = roll

    @property
    def value(self):
        return self._roll.value

    @property
    def dice(self):
        return [Die(*d) for d in self._roll.dice]

    @property
    def breakdown(self):
        return self._roll.breakdown

    @property
    def json(self):
        return _json.loads(self._roll.json)

    @property
    def json_text(self):
        return self._roll.json

    @property
    def state(self):
        text = self._roll.state
        return None if text is None else _json.loads(text)

    @property
    def seed(self):
        return self._roll.seed

    def __repr__(self):
        return f"<alea.Result {self.breakdown.splitlines()[0]}>"


class Distribution:
    """How a value is distributed. A mapping from each value to its probability: a Fraction when
    .exact, else a float estimate. .entries lists (value, probability) pairs in alea's order
    (numbers ascending); .mean is a Fraction when exact and numeric, a float when sampled, None
    when not numeric; .fields has a Distribution per field of a record result; .json is the
    alea.stats/1 document (a dict), .unresolved the probability of runs that gave no value."""

    def __init__(self, raw, exact, name=""):
        self.name = name
        self.exact = exact
        convert = _fraction if exact else float
        self.entries = [(e[0], convert(e[1] if exact else e[2])) for e in raw["entries"]]
        self.intervals = None if exact else [(e[0], (e[3], e[4])) for e in raw["entries"]]
        if not raw["numeric"]:
            self.mean = None
        elif exact and raw["exact_mean"]:
            self.mean = _fraction(raw["exact_mean"])
        else:
            self.mean = raw["mean"]
        self.sd = raw["sd"] if raw["numeric"] else None
        self.fields = {}

    def __getitem__(self, value):
        for v, p in self.entries:
            if v == value and type(v) is type(value):
                return p
        raise KeyError(value)

    def get(self, value, default=None):
        try:
            return self[value]
        except KeyError:
            return default

    def __iter__(self):
        return (v for v, _ in self.entries)

    def __len__(self):
        return len(self.entries)

    def __contains__(self, value):
        return self.get(value) is not None

    def items(self):
        return list(self.entries)

    def __repr__(self):
        return f"<alea.Distribution {self.name or 'value'}: {len(self.entries)} values, exact={self.exact}>"


def _fraction(text):
    numerator, denominator = text.split("/")
    return Fraction(int(numerator), int(denominator))


def _stats_result(raw):
    distributions = raw.distributions
    exact = raw.exact
    top = Distribution(distributions[0], exact)
    top.fields = {d["name"]: Distribution(d, exact, d["name"]) for d in distributions[1:]}
    top.runs = raw.runs
    top.reason = raw.reason
    top.interrupted = raw.interrupted
    top.cut_short = raw.cut_short or None
    fraction, value = raw.unresolved
    top.unresolved = _fraction(fraction) if exact else value
    text = raw.json
    top.json = None if text is None else _json.loads(text)
    return top


_UINT64 = 1 << 64
_INT64 = 1 << 63


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _seed(seed):
    if seed is None:
        return None
    if not _is_int(seed):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed < _UINT64:
        raise ValueError(f"seed must be from 0 to 2**64 - 1, got {seed}")
    return seed


def _faces(faces, what):
    if faces is None:
        return None
    if isinstance(faces, (str, bytes)) or not hasattr(faces, "__iter__"):
        raise TypeError(f"{what} must be a list of ints, not {type(faces).__name__}")
    out = list(faces)
    for k, f in enumerate(out):
        if not _is_int(f):
            raise TypeError(f"{what}[{k}] must be an int, not {type(f).__name__}")
        if not -_INT64 <= f < _INT64:
            raise ValueError(f"{what}[{k}] does not fit in 64 bits")
    return out


def _values_json(values, what):
    """A state or choices, {"ruleset": {"name": value, ...}, ...}, as the JSON of a state file."""
    if values is None:
        return None
    if not isinstance(values, dict):
        raise TypeError(f"{what} must be a dict {{ruleset: {{name: value}}}}, not {type(values).__name__}")
    for ruleset, entries in values.items():
        if not isinstance(ruleset, str) or not isinstance(entries, dict):
            raise TypeError(f"{what} must be a dict {{ruleset: {{name: value}}}}: {ruleset!r} is not a str "
                            "with a dict of values")
    try:
        return _json.dumps(values)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: {e}") from None


def _count(x, what, least, below):
    if x is None:
        return 0
    if not _is_int(x):
        raise TypeError(f"{what} must be an int, not {type(x).__name__}")
    if not least <= x < below:
        raise ValueError(f"{what} must be from {least} to {below - 1}, got {x}")
    return x


_MAX_TIME_LIMIT = 365 * 24 * 3600  # a year, as alea stats --time-limit allows


def _seconds(x, what):
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"{what} must be a number of seconds, not {type(x).__name__}")
    if not 0 < x <= _MAX_TIME_LIMIT:  # NaN fails this too
        raise ValueError(f"{what} must be more than 0 and at most {_MAX_TIME_LIMIT} seconds (a year), got {x}")
    return float(x)


class Engine:
    """An engine: the limits every run keeps to, and the rulesets loaded.

    One engine may roll and compute odds from many threads at once (the GIL is released while
    alea works), and load rulesets meanwhile.
    """

    def __init__(self, limits=None):
        if limits is not None and not isinstance(limits, dict):
            raise TypeError(f"limits must be a dict {{name: int}}, not {type(limits).__name__}")
        shipped = _RULESETS if _os.path.isdir(_RULESETS) else ""
        self._engine = _alea.Engine(limits, shipped)

    @property
    def limits(self):
        """Every limit of this engine, by name."""
        return self._engine.limits()

    def load_ruleset(self, name_or_path, dirs=()):
        """Loads a ruleset by name ("heroes-mythos": from `dirs`, then $ALEA_PATH, then the
        rulesets installed with alea), or from a file (a path, or a name ending in .yaml)."""
        if isinstance(name_or_path, _os.PathLike):
            name_or_path = _os.fspath(name_or_path)
        if not isinstance(name_or_path, str):
            raise TypeError(f"name_or_path must be a str or a path, not {type(name_or_path).__name__}")
        if isinstance(dirs, (str, bytes)):
            raise TypeError("dirs must be a list of directories, not one str")
        if name_or_path.endswith((".yaml", ".yml")) or "/" in name_or_path:
            if dirs:
                raise ValueError("dirs is for a ruleset loaded by name, not from a file")
            self._engine.load_ruleset_file(name_or_path)
        else:
            self._engine.load_ruleset(name_or_path, [_os.fspath(d) for d in dirs])

    def load_ruleset_text(self, yaml, name="<ruleset>"):
        """Loads a ruleset from its YAML text; `name` shows it in errors."""
        if not isinstance(yaml, str) or not isinstance(name, str):
            raise TypeError("yaml and name must be str")
        self._engine.load_ruleset_text(yaml, name)

    def rulesets(self):
        """The names of the rulesets loaded."""
        return self._engine.rulesets()

    def describe(self, what):
        """The alea.describe/1 document (a dict) of a ruleset ("heroes-mythos") or of one of its
        mechanics ("heroes-mythos.check"), loading the ruleset if need be."""
        return _json.loads(self._engine.describe(what))

    def roll(self, expression, seed=None, dice=None, state=None, choices=None):
        """Compiles and runs `expression`. seed: the random dice's seed (None: a fresh one);
        dice: the faces the dice show instead, in the order they are rolled (every one must be
        used); state: the rulesets' counters, {"ruleset": {"counter": value}}; choices: the
        player's decisions, in the same shape."""
        return self._roll(expression, "<input>", seed, dice, state, choices, {})

    def call(self, mechanic, arguments=None, *, seed=None, faces=None, state=None, choices=None, **more):
        """Calls a ruleset's mechanic: call("heroes-mythos.check", dice=5, red=1). The ruleset is
        loaded if it is not. Its arguments are given by name, as ints, bools, strs (a label),
        lists and dicts (records); a parameter named like one of this method's own (seed,
        faces, state, choices, arguments) goes in the dict `arguments`. faces: the scripted
        dice, as roll's dice."""
        args = self._arguments(arguments, more)
        source, variables = self._call(mechanic, args)
        return self._roll(source, "<call>", seed, faces, state, choices, variables)

    def stats(self, expression, seed=None, samples=None, threads=None, exact_only=False, time_limit=None):
        """How the value of `expression` is distributed: exactly when it can be found within
        `time_limit` seconds (1.5 by default), else by sampling (`samples` runs, 100,000 by
        default, on `threads` threads, every core by default, from `seed`). exact_only: raise
        alea.Error rather than sample; it waits as long as it takes unless time_limit is given."""
        return self._stats(expression, "<input>", seed, samples, threads, exact_only, time_limit, {})

    def call_stats(self, mechanic, arguments=None, *, seed=None, samples=None, threads=None, exact_only=False,
                   time_limit=None, **more):
        """The distribution of a mechanic's result, called as call() calls it."""
        args = self._arguments(arguments, more)
        source, variables = self._call(mechanic, args)
        return self._stats(source, "<call>", seed, samples, threads, exact_only, time_limit, variables)

    # ---- what the methods share

    def _roll(self, source, name, seed, dice, state, choices, variables):
        if not isinstance(source, str):
            raise TypeError(f"the expression must be a str, not {type(source).__name__}")
        seed = _seed(seed)
        dice = _faces(dice, "dice" if name == "<input>" else "faces")
        if dice is not None and seed is not None:
            raise ValueError("scripted dice and a seed were both given: a roll uses one or the other")
        raw = self._engine.roll(source, name, seed, dice, _values_json(state, "state"),
                                _values_json(choices, "choices"), variables)
        return Result(raw)

    def _stats(self, source, name, seed, samples, threads, exact_only, time_limit, variables):
        if not isinstance(source, str):
            raise TypeError(f"the expression must be a str, not {type(source).__name__}")
        if not isinstance(exact_only, bool):
            raise TypeError(f"exact_only must be a bool, not {type(exact_only).__name__}")
        raw = self._engine.stats(source, name, _seed(seed), _count(samples, "samples", 1, _UINT64),
                                 _count(threads, "threads", 0, 1 << 32), exact_only, _seconds(time_limit, "time_limit"),
                                 variables)
        return _stats_result(raw)

    @staticmethod
    def _arguments(arguments, more):
        if arguments is None:
            return dict(more)
        if not isinstance(arguments, dict):
            raise TypeError(f"arguments must be a dict, not {type(arguments).__name__}")
        for key in more:
            if key in arguments:
                raise TypeError(f"the argument '{key}' was given twice, by keyword and in arguments")
        return {**arguments, **more}

    def _call(self, mechanic, args):
        if not isinstance(mechanic, str):
            raise TypeError(f"the mechanic must be a str RULESET.MECHANIC, not {type(mechanic).__name__}")
        for key in args:
            if not isinstance(key, str):
                raise TypeError(f"an argument's name must be a str, not {key!r}")
        names = list(args)
        # Each value is bound to a variable, never written into the call's text: the variable of
        # the parameter's name (`check(dice: dice)`, as the breakdown shows it), or `_argN` for a
        # parameter named like the ruleset itself, whose name the variable would hide.
        ruleset = mechanic.split(".")[0].replace("-", "_")
        bound = [n if n != ruleset else f"_arg{k}" for k, n in enumerate(names)]
        source = self._engine.call_source(mechanic, names, bound)
        return source, {b: args[n] for b, n in zip(bound, names)}


_default = None


def _engine():
    global _default
    if _default is None:
        _default = Engine()
    return _default


def roll(expression, seed=None, dice=None, state=None, choices=None):
    """Engine.roll on the default engine (default limits, the rulesets it has loaded)."""
    return _engine().roll(expression, seed=seed, dice=dice, state=state, choices=choices)


def stats(expression, seed=None, samples=None, threads=None, exact_only=False, time_limit=None):
    """Engine.stats on the default engine."""
    return _engine().stats(expression, seed=seed, samples=samples, threads=threads, exact_only=exact_only,
                           time_limit=time_limit)


def call(mechanic, arguments=None, **kwargs):
    """Engine.call on the default engine."""
    return _engine().call(mechanic, arguments, **kwargs)


def limits():
    """Every limit at its default, by name: what Engine(limits={...}) may change."""
    return _alea.default_limits()


__all__ = ["Engine", "Error", "Result", "Distribution", "Die", "roll", "stats", "call", "limits"]
