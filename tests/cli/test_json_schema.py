#!/usr/bin/python3
"""tests/cli/test_json_schema.py — every JSON document alea prints validates against the schema it
names (schema/*.json, JSON Schema draft 2020-12), and the schemas refuse what they do not describe.

Checks:
  1. each schema file is a valid 2020-12 schema, and the "schema" const of each document's schema
     is the name interpreter/render/json_documents.hpp gives it (the one place the names live);
  2. stdout of every `$ alea … --json` example in the docs (the blocks test_docs.py runs, read by
     its parser) is exactly one JSON document, valid against the schema its "schema" key names;
  3. the same for each command of tests/cli/json_cases.txt, which covers every kind of document
     and its failure forms, and states the exit code and the schema expected; and every reply
     `alea serve` writes (alea.reply/1, and the document it holds) to the requests of
     tests/cli/serve_requests.jsonl and of the docs' `$ alea serve` examples;
  4. a document with a key added, or a required key taken away, fails validation.

Needs the jsonschema module (Debian: python3-jsonschema), so CTest runs it with /usr/bin/python3;
without the module it fails, saying so.

Usage: /usr/bin/python3 test_json_schema.py /path/to/alea
"""
import copy
import json
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clitest import ALEA, ROOT, check, environment, finish  # noqa: E402
import test_docs  # noqa: E402  (its parser of the docs' examples)

try:
    import jsonschema
except ImportError as e:
    print(f"test_json_schema: FAIL: cannot import jsonschema ({e}) in {sys.executable}; "
          "install python3-jsonschema (scripts/setup.sh lists it in ALEA_PACKAGES)")
    sys.exit(1)

SCHEMA_DIR = ROOT / "schema"
HEADER = ROOT / "interpreter" / "render" / "json_documents.hpp"
CASES = Path(__file__).resolve().parent / "json_cases.txt"
SHARED = "alea.diagnostic-1.json"  # the error object's definition, not a document of its own


def file_of(name):
    """alea.roll/1 → alea.roll-1.json."""
    return name.replace("/", "-") + ".json"


# ---- 1. the schemas themselves --------------------------------------------------------------

schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCHEMA_DIR.glob("*.json"))}
check("schema/ has the schemas", len(schemas) > 1, str(list(schemas)))
for name, s in schemas.items():
    try:
        jsonschema.Draft202012Validator.check_schema(s)
        valid = ""
    except jsonschema.SchemaError as e:
        valid = str(e)[:800]
    check(f"{name} is a valid draft 2020-12 schema", not valid, valid)
    check(f"{name} declares draft 2020-12", s.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
          str(s.get("$schema")))
    check(f"{name} has $id {name}", s.get("$id") == name, str(s.get("$id")))
    check(f"{name} has a title", bool(s.get("title")), "")

# The names as the C++ writes them: `inline constexpr std::string_view roll_schema = "alea.roll/1";`.
constants = dict(re.findall(r'constexpr\s+std::string_view\s+(\w+_schema)\s*=\s*"([^"]+)"',
                            HEADER.read_text(encoding="utf-8")))
check("json_documents.hpp names the documents", len(constants) >= 6, str(constants))


def walk(node):
    """Every object of a JSON tree."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def schema_consts(s):
    """The consts of the "schema" key of every document shape the file describes."""
    return {n["properties"]["schema"]["const"] for n in walk(s)
            if isinstance(n.get("properties"), dict) and isinstance(n["properties"].get("schema"), dict)
            and "const" in n["properties"]["schema"]}


for cname, value in constants.items():
    f = file_of(value)
    check(f"{cname} = {value} has its file schema/{f}", f in schemas, str(list(schemas)))
    if f in schemas:
        check(f"schema/{f}: its documents' \"schema\" is {value}", schema_consts(schemas[f]) == {value},
              str(schema_consts(schemas[f])))
documents = {file_of(v) for v in constants.values()}
for name in schemas:
    check(f"schema/{name} is a document's schema or the shared definition", name in documents or name == SHARED,
          f"no constant in {HEADER.relative_to(ROOT)} names it")


# The schemas refer to one another by their relative $id ("alea.diagnostic-1.json#/$defs/…").
def validator(name):
    s = schemas[name]
    try:
        import referencing  # jsonschema 4.18 and later
        registry = referencing.Registry().with_resources(
            [(n, referencing.Resource.from_contents(x)) for n, x in schemas.items()])
        return jsonschema.Draft202012Validator(s, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10
        resolver = jsonschema.RefResolver(base_uri=name, referrer=s, store=dict(schemas))
        return jsonschema.Draft202012Validator(s, resolver=resolver)


validators = {name: validator(name) for name in schemas}


def problems(doc):
    """Why `doc` is not valid against the schema its "schema" key names ("" when it is)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("schema"), str):
        return "not an object with a \"schema\" key as its first"
    if next(iter(doc)) != "schema":
        return f"its first key is {next(iter(doc))!r}, not \"schema\""
    f = file_of(doc["schema"])
    if f not in validators or f == SHARED:
        return f"no schema file schema/{f} for {doc['schema']!r}"
    errors = sorted(validators[f].iter_errors(doc), key=lambda e: list(e.absolute_path))
    return "; ".join(f"at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:3])


def one_document(stdout):
    """The single JSON document `stdout` holds, or (None, why not)."""
    try:
        decoder = json.JSONDecoder()
        doc, end = decoder.raw_decode(stdout.lstrip())
    except ValueError as e:
        return None, f"stdout is not JSON ({e}): {stdout[:300]!r}"
    rest = stdout.lstrip()[end:]
    if rest.strip():
        return None, f"stdout has more than one document; after the first: {rest[:200]!r}"
    return doc, ""


def run_words(words, cwd=ROOT):
    p = subprocess.run([ALEA] + words, capture_output=True, text=True, timeout=120, cwd=cwd, env=environment(),
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


valid_docs = {}  # schema name → [documents seen], for the negative checks


def validate(where, stdout, want_schema=None):
    doc, why = one_document(stdout)
    check(f"{where}: stdout is exactly one JSON document", doc is not None, why)
    if doc is None:
        return
    if want_schema is not None:
        check(f"{where}: its schema is {want_schema}", isinstance(doc, dict) and doc.get("schema") == want_schema,
              str(doc.get("schema") if isinstance(doc, dict) else doc)[:200])
    why = problems(doc)
    check(f"{where}: valid against its schema", not why, why)
    if not why:
        valid_docs.setdefault(doc["schema"], []).append(doc)


# ---- 2. the docs' examples ------------------------------------------------------------------

doc_problems, doc_examples = [], []
for path in test_docs.DOCS:
    if path.exists():
        doc_examples += test_docs.examples(path, doc_problems)
json_examples = [ex for ex in doc_examples if "--json" in shlex.split(ex.command)]
check("the docs have --json examples", len(json_examples) >= 6, str(len(json_examples)))
for ex in json_examples:
    rc, out, err = run_words(shlex.split(ex.command)[1:])
    validate(ex.where(), out)

# ---- 3. the cases ---------------------------------------------------------------------------

with tempfile.TemporaryDirectory(prefix="alea-json-") as tmp:
    t = Path(tmp)
    # The files the cases name as {tmp}/…
    (t / "good.alea").write_text("let x = 3d6\nx + 1\n")
    (t / "bad.alea").write_text("let x = 3d6\nx + (1\n")
    (t / "unknown.alea").write_text("strenght + nope\n")
    (t / "broken-state.json").write_text("{\"pbta-superiority\": ")
    (t / "broken.yaml").write_text(
        "schema: 1\nname: broken\ntitle: Broken\nsource: a test\nmechanics:\n"
        "  check:\n    doc: d\n    parms: {}\n    body: \"1\"\n    returns: {type: int, doc: one}\n")
    cases = 0
    for number, line in enumerate(CASES.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"json_cases.txt:{number}"
        words = shlex.split(line.replace("{tmp}", tmp))
        if len(words) < 3 or not words[0].isdigit() or words[2] != "alea":
            check(f"{where}: a case is EXIT SCHEMA alea WORDS…", False, line)
            continue
        cases += 1
        rc, out, err = run_words(words[3:])
        check(f"{where}: exit {words[0]}", rc == int(words[0]), f"exit {rc}: {err[-400:]}")
        validate(f"{where} ({' '.join(words[3:])})", out, words[1])
    check("json_cases.txt has cases", cases >= 20, str(cases))

# ---- 3b. alea serve: each reply line, and the document inside it -------------------------------

SERVE_REQUESTS = Path(__file__).resolve().parent / "serve_requests.jsonl"


def serve_replies(where, lines):
    """Runs `alea serve` on the request lines; validates each reply and the document it holds."""
    p = subprocess.run([ALEA, "serve"], input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                       timeout=120, cwd=ROOT, env=environment())
    check(f"{where}: alea serve exits 0", p.returncode == 0, f"exit {p.returncode}: {p.stderr[-400:]}")
    replies = p.stdout.splitlines()
    check(f"{where}: one reply a request", len(replies) == len(lines), f"{len(replies)} replies to {len(lines)}")
    for n, line in enumerate(replies, 1):
        validate(f"{where}: reply {n}", line, "alea.reply/1")
        doc = json.loads(line)
        if isinstance(doc.get("result"), dict):
            validate(f"{where}: the document of reply {n}", json.dumps(doc["result"]))
    return replies


request_lines = [line for line in SERVE_REQUESTS.read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#")]
check("serve_requests.jsonl has requests", len(request_lines) >= 10, str(len(request_lines)))
serve_replies("serve_requests.jsonl", request_lines)
serve_examples = [ex for ex in doc_examples if shlex.split(ex.command)[1:2] == ["serve"] and ex.stdin]
check("the docs have alea serve examples", len(serve_examples) >= 2, str(len(serve_examples)))
for ex in serve_examples:
    serve_replies(ex.where(), ex.stdin)

# Every kind of document was seen valid, at least once.
for value in constants.values():
    check(f"a valid {value} was seen", value in valid_docs, str(sorted(valid_docs)))

# ---- 4. the schemas refuse what they do not describe ------------------------------------------


def invalid(doc):
    return bool(problems(doc))


for name, docs in sorted(valid_docs.items()):
    doc = docs[0]
    extra = copy.deepcopy(doc)
    extra["surplus"] = 1
    check(f"{name}: an extra key fails", invalid(extra), "")
    for key in list(doc)[1:]:
        required = validators[file_of(name)].schema
        missing = copy.deepcopy(doc)
        del missing[key]
        # A key the schema lists as required (at the top, or in the form 'describes' names).
        forms = [required] + [n for n in walk(required) if isinstance(n.get("properties"), dict)
                              and "describes" in n["properties"]]
        if any(key in f.get("required", []) for f in forms):
            check(f"{name}: without {key!r} it fails", invalid(missing), "")
    renamed = {("Schema" if k == "schema" else k): v for k, v in doc.items()}
    check(f"{name}: 'schema' renamed fails", invalid(renamed), "")

# Deeper down: the error object, a die, a distribution's entry, a listed ruleset.
nested = [("alea.roll/1", lambda d: d["error"], "a roll's error"),
          ("alea.roll/1", lambda d: d["dice"][0], "a die"),
          ("alea.error/1", lambda d: d["error"], "an error document's error"),
          ("alea.check/1", lambda d: d["files"][0], "a checked file"),
          ("alea.stats/1", lambda d: d["distribution"][0], "an entry of a distribution"),
          ("alea.stats/1", lambda d: d["unresolved"], "the unresolved runs"),
          ("alea.rulesets/1", lambda d: d["rulesets"][0], "a listed ruleset"),
          ("alea.describe/1", lambda d: d["mechanics"][0]["params"][0], "a mechanic's parameter")]
for name, part, what in nested:
    for doc in valid_docs.get(name, []):
        try:
            part(doc)
        except (KeyError, IndexError, TypeError):
            continue
        extra = copy.deepcopy(doc)
        part(extra)["surplus"] = True
        check(f"{name}: {what} with an extra key fails", invalid(extra), "")
        first_key = next(iter(part(doc)))
        missing = copy.deepcopy(doc)
        del part(missing)[first_key]
        check(f"{name}: {what} without {first_key!r} fails", invalid(missing), "")
        break
    else:
        check(f"{name}: a document with {what} was seen", False, "")

# A value of the wrong type, and one out of an enumeration.
if "alea.roll/1" in valid_docs:
    d = copy.deepcopy(valid_docs["alea.roll/1"][0])
    d["ok"] = "yes"
    check("alea.roll/1: ok as a string fails", invalid(d), "")
if "alea.stats/1" in valid_docs:
    d = copy.deepcopy(valid_docs["alea.stats/1"][0])
    d["method"] = "guessed"
    check("alea.stats/1: an unknown method fails", invalid(d), "")
check("a document of an unknown schema fails", invalid({"schema": "alea.roll/2", "expression": "1"}), "")

finish("test_json_schema", f" ({len(json_examples)} doc examples, {sum(map(len, valid_docs.values()))} documents)")
