"""Benchmark: our least-loss search and ``riskcore anonymize`` against ARX 3.9.2 (issue 28).

The input is ARX's own Adult: ``data/adult.csv`` of ARX's repository (the complete
cases of UCI Adult, 30,162 rows, ';' separated) with its hierarchies
``data/adult_hierarchy_*.csv``, read unchanged by both tools (ours through
``--hierarchy COL=FILE``); 9 QIs (sex, age, race, marital-status, education,
native-country, workclass, occupation, salary-class; 12,960 nodes), k = 5, the
precision metric (ARX's ``Metric.createPrecisionMetric()``: level / height averaged
over QIs and records, a suppressed record costing 1; ours ``--objective
precision``), suppression limits 0%, 2%, 4%. For each limit it prints:

* ARX whole process: wall time of a fresh ``java`` process that reads the files,
  anonymizes once and writes its JSON line (``benchmarks/arx/ArxAdult.java``);
* ours whole CLI: wall time of ``python -m riskcore anonymize ... --objective
  precision`` (reading, search, writing the table and the recipe to a temporary
  directory);
* ARX search (warm): ARX's ``ARXResult.getTime()`` (Flash's traversal of the
  lattice) on the last of ``--repeats`` runs in one JVM; ARX's whole
  ``anonymize()`` call (its encoding of the data included) is in ``--json``;
* our search: :func:`riskcore.deidentify.search.run.search` in this process on a
  :class:`~riskcore.deidentify.search.lattice.Lattice` built as the CLI builds it, the
  last of ``--repeats`` runs (a new Lattice each: nothing cached between runs;
  the Lattice's construction, our encoding of the data, is not included; it is
  in ``--json``);
* nodes: the nodes our search evaluated / the nodes ARX checked
  (``ARXProcessStatistics.getTransformationsChecked()``: anonymity checked or loss
  computed) and, in brackets, the nodes ARX's result lattice holds
  (``ARXLattice.getSize()``: the nodes Flash touched, checked or tagged);
* whether the optimum agrees: the same node and loss (to 1e-9); "tie" when the
  losses agree but the nodes differ.

A second table gives CPU time (user + sys) of the same runs: ARX's whole process
and our whole CLI (the children's rusage), ARX's ``anonymize()`` in a warm JVM
(the calling thread's CPU time: encoding and search) and our Lattice + search
(``time.process_time``). On a machine shared with other work the wall times
stretch; the CPU times much less.

``--extra-metrics loss,entropy`` adds ARX under its Loss and non-uniform entropy
(``Metric.createLossMetric()`` / ``createEntropyMetric()``) beside our search under
the matching objectives, ``loss_geometric`` (ARX's Loss with its default geometric
mean) and ``entropy`` (ARX's monotone ``MetricMDNUEntropyPrecomputed``). ARX's
``createEntropyMetric()`` is its non-monotone variant, which also charges suppressed
records: with suppression the two entropies are different quantities, and only at
0% must the optima agree.

``--models all`` (issue 39) compares instead one more privacy model at a time, with
no k target (``--model-k 1``): basic and enhanced beta-likeness, delta-disclosure,
sample uniqueness, the average re-identification risk and population uniqueness
under each estimator (:data:`MODELS`: the parameters, chosen so that the optimum
lies inside the lattice). The QIs are the 8 of :data:`QIS_8` (ARX's Adult
hierarchies without occupation, 4,320 nodes); occupation is the sensitive
attribute of the attribute models (ARX: ``AttributeType.SENSITIVE_ATTRIBUTE``).
ARX runs ``BasicBLikeness``, ``EnhancedBLikeness``, ``DDisclosurePrivacy``,
``SampleUniqueness``, ``AverageReidentificationRisk`` and ``PopulationUniqueness``
with ``ARXPopulationModel.create(N)``; ours runs ``Targets.of(beta=..., ...)``
in process (and ``riskcore anonymize --k 1 --beta ...`` with ``--with-cli``).

Building ARX (once, outside this repository; about a minute)::

    apt-get install -y openjdk-17-jdk-headless libpdfbox2-java
    benchmarks/arx/build_arx.sh /work/arx     # the default target

The script unpacks ARX's tag v3.9.2 (from a local git mirror, else GitHub), stubs
Hadoop's ``Writable``, compiles ``src/main`` and the driver, and writes
``/work/arx/classpath``. Without a build this benchmark prints these steps and
exits 0.

Run: ``.venv/bin/python benchmarks/bench_arx.py`` (``ARX_HOME`` or ``--arx-home``
for another build; ``--json`` for every figure).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QIS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
    "salary-class",
]
#: Issue 39's QIs: Adult's without occupation, the sensitive attribute of the attribute models.
QIS_8 = [q for q in QIS if q != "occupation"]
SENSITIVE = "occupation"
#: The population of the population-uniqueness runs (the complete cases are 6% of it: Dankar's
#: rule picks Pitman) and the smaller one that sends Dankar's rule to Zayatz and SNB.
POPULATION = 500_000
POPULATION_SMALL = 100_000
#: The runs of ``--models all``: (driver spec, population size); parameters chosen so that the
#: optimum lies inside the lattice (neither the bottom nor the top node).
MODELS: list[tuple[str, int]] = [
    ("beta-basic:5", 0),
    ("beta-enhanced:5", 0),
    ("delta-disclosure:4", 0),
    ("sample-uniqueness:0.01", 0),
    ("average-risk:0.05", 0),
    ("population-uniqueness:dankar:0.001", POPULATION),
    ("population-uniqueness:dankar:0.001", POPULATION_SMALL),
    ("population-uniqueness:pitman:0.001", POPULATION),
    ("population-uniqueness:zayatz:0.001", POPULATION),
    ("population-uniqueness:snb:0.001", POPULATION),
]
#: What our beta-likeness and delta-disclosure measure each class against (``--likeness-reference``:
#: "release", our default, or "input", ARX's rule).
LIKENESS_REFERENCE = ["release"]
BUILD = """ARX is not built at {home} (no {home}/classpath or driver). Build it with:

    apt-get install -y openjdk-17-jdk-headless libpdfbox2-java
    benchmarks/arx/build_arx.sh {home}

or point ARX_HOME (or --arx-home) at a build."""


def timed(cmd: list[str], **kw: Any) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run a child process; return it, its wall time and its CPU time (user + sys, seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done, wall, cpu


def arx_present(home: Path) -> bool:
    """Return True when ``home`` holds a build of ``benchmarks/arx/build_arx.sh``."""
    return (home / "classpath").is_file() and (home / "driver" / "ArxAdult.class").is_file()


def run_arx(
    home: Path,
    data: Path,
    limits: list[float],
    *,
    k: int,
    metric: str,
    repeats: int,
    model: str | None = None,
    population_size: int = 0,
) -> list[dict[str, Any]]:
    """Run the driver once on ``data``'s Adult over ``limits``; return its JSON lines (with
    wall and CPU time).

    ``model`` is a spec of :data:`MODELS` (the driver's ``--model``), ``None`` for k alone.
    """
    extra = [] if model is None else ["--model", model, "--population-size", str(population_size)]
    cmd = [
        "java",
        "-cp",
        (home / "classpath").read_text().strip(),
        "ArxAdult",
        str(data),
        "--k",
        str(k),
        "--suppression",
        ",".join(str(s) for s in limits),
        "--metrics",
        metric,
        "--repeats",
        str(repeats),
        *extra,
    ]
    done, wall, cpu = timed(cmd)
    if done.returncode != 0:
        raise SystemExit(f"ARX's driver failed:\n{done.stderr[-3000:]}")
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    for row in rows:
        row["process_seconds"] = wall
        row["process_cpu_seconds"] = cpu
    return rows


def _best_of(runs: list[dict[str, Any]], wall: str, cpu: str) -> dict[str, Any]:
    """Return the run of least wall time, with the least CPU time of all the runs."""
    best = dict(min(runs, key=lambda r: float(r[wall])))
    best[cpu] = min(float(r[cpu]) for r in runs)
    return best


def model_options(
    model: str | None, population_size: int
) -> tuple[dict[str, Any], tuple[str, ...], list[str]]:
    """Return a model spec's ``Targets.of`` options, sensitive columns and CLI flags.

    The specs are the driver's ``--model`` (``benchmarks/arx/ArxAdult.java``):
    ``beta-basic:B``, ``beta-enhanced:B``, ``delta-disclosure:D``,
    ``sample-uniqueness:U``, ``average-risk:A``, ``population-uniqueness:MODEL:U``.
    """
    if model is None:
        return {}, (), []
    name, *rest = model.split(":")
    value = float(rest[-1])
    sensitive: tuple[str, ...] = ()
    reference = {"likeness_reference": LIKENESS_REFERENCE[0]}
    by = ["--likeness-reference", LIKENESS_REFERENCE[0]]
    if name in ("beta-basic", "beta-enhanced"):
        kind = name.removeprefix("beta-")
        options: dict[str, Any] = {"beta": value, "beta_kind": kind, **reference}
        flags = ["--beta", rest[-1], "--beta-kind", kind, *by]
        sensitive = (SENSITIVE,)
    elif name == "delta-disclosure":
        options, flags, sensitive = (
            {"delta_disclosure": value, **reference},
            ["--delta-disclosure", rest[-1], *by],
            (SENSITIVE,),
        )
    elif name == "sample-uniqueness":
        options, flags = {"sample_uniqueness": value}, ["--sample-uniqueness", rest[-1]]
    elif name == "average-risk":
        options, flags = {"average_risk": value}, ["--average-risk", rest[-1]]
    elif name == "population-uniqueness":
        options = {
            "population_uniqueness": value,
            "population_model": rest[0],
            "population_size": float(population_size),
        }
        flags = [
            "--population-uniqueness",
            rest[-1],
            "--population-model",
            rest[0],
            "--population-size",
            str(population_size),
        ]
    else:
        raise SystemExit(f"unknown model {model!r}")
    return options, sensitive, flags


def our_cli(
    data: Path,
    limit: float,
    *,
    k: int,
    model: str | None = None,
    population_size: int = 0,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``riskcore anonymize`` on ARX's Adult; return its JSON summary, wall and CPU time.

    With ``model`` the QIs are :data:`QIS_8` and the model's flags are added
    (occupation ``--sensitive`` for the attribute models). ``env``: the child's
    environment (default this process's; see :func:`cli_env`).
    """
    _, sensitive, flags = model_options(model, population_size)
    for col in sensitive:
        flags += ["--sensitive", col]
    hier = []
    for q in QIS if model is None else QIS_8:
        hier += ["--qi", q, "--hierarchy", f"{q}={data / f'adult_hierarchy_{q}.csv'}"]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "riskcore",
            "anonymize",
            str(data / "adult.csv"),
            *hier,
            "--k",
            str(k),
            *flags,
            "--max-suppression",
            str(limit),
            "--objective",
            "precision",
            "--out",
            str(Path(tmp) / "out.csv"),
            "--recipe-out",
            str(Path(tmp) / "recipe.json"),
            "--format",
            "json",
        ]
        done, wall, cpu = timed(cmd, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"riskcore anonymize failed:\n{done.stderr[-3000:]}")
    summary = json.loads(done.stdout)
    # the CLI's own "seconds" is its search time: the whole process's wall time must not be
    # overwritten by it (it was, and the README's "whole process" row showed search times)
    summary["search_seconds"] = summary.pop("seconds", None)
    return {**summary, "seconds": wall, "cpu_seconds": cpu}


def cli_env(bytecode_cache: bool) -> tuple[dict[str, str], str]:
    """Return the environment of our CLI's runs and a sentence saying what it is.

    With ``bytecode_cache`` the compiled modules are cached, as an installed
    package has them (pip compiles them at install time): ``PYTHONDONTWRITEBYTECODE``
    is dropped and the cache goes to ``benchmarks/out/pycache``
    (``PYTHONPYCACHEPREFIX``, nothing written beside the sources). Without it, the
    environment as given: where it sets ``PYTHONDONTWRITEBYTECODE`` (these
    sessions do), every run compiles riskcore's modules from source again.
    """
    env = dict(os.environ)
    if not bytecode_cache:
        compiles = env.get("PYTHONDONTWRITEBYTECODE")
        return env, (
            "bytecode as the environment gives it"
            + (" (PYTHONDONTWRITEBYTECODE set: compiled from source each run)" if compiles else "")
        )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(ROOT / "benchmarks" / "out" / "pycache")
    return (
        env,
        "compiled modules cached as installed (benchmarks/out/pycache), after one warm-up run",
    )


def _clock() -> tuple[float, float]:
    """Return (wall, CPU) seconds now."""
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """Return the (wall, CPU) seconds since ``start``."""
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def load_adult(data: Path, phases: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Read ARX's Adult and its hierarchies as ``riskcore anonymize`` does.

    Records in ``phases`` the (wall, CPU) seconds of reading the CSV, of the
    direct-identifier detection the CLI runs on the table, and of the hierarchies
    (their leaf lookup over every row included).
    """
    import pandas as pd

    from riskcore.deidentify.hierarchy import check_covers, read_arx_hierarchy
    from riskcore.deidentify.recipe.identifiers import detect_identifiers
    from riskcore.io import LoadLimits, load_table

    start = _clock()
    df = load_table(str(data / "adult.csv"), limits=LoadLimits(max_rows=10**8)).data
    phases["read the CSV"] = _since(start)
    start = _clock()
    detect_identifiers(df)
    phases["detect direct identifiers"] = _since(start)
    start = _clock()
    hierarchies = {}
    for q in QIS:
        text = (data / f"adult_hierarchy_{q}.csv").read_text(encoding="utf-8-sig")
        numeric = bool(pd.api.types.is_numeric_dtype(df[q].dtype))
        hierarchies[q] = check_covers(read_arx_hierarchy(text, q, numeric=numeric), df[q])
    phases["read and check the hierarchies"] = _since(start)
    return df, hierarchies


def write_release(
    df: Any, hierarchies: dict[str, Any], levels: list[int], phases: dict[str, Any]
) -> None:
    """Generalize ``df`` to ``levels`` and write it as the CLI does; record both phases."""
    from riskcore.deidentify.recipe.base import generalize_columns
    from riskcore.io.export import write_table

    start = _clock()
    levels_of = dict(zip(QIS, levels, strict=True))
    release = generalize_columns(df, hierarchies, levels_of, categorical=True)  # as the CLI
    phases["generalize the release"] = _since(start)
    with tempfile.TemporaryDirectory() as tmp:
        start = _clock()
        write_table(release, Path(tmp) / "out.csv")
        phases["write the release (formula-safe CSV)"] = _since(start)


def repeated_adult(home: Path, times: int) -> Path:
    """Return a folder holding ARX's Adult repeated ``times`` times and its hierarchies."""
    data = home / "src" / "data"
    if times == 1:
        return data
    out = ROOT / "benchmarks" / "out" / f"arx_adult_x{times}"
    if not (out / "adult.csv").is_file():
        out.mkdir(parents=True, exist_ok=True)
        header, body = (data / "adult.csv").read_bytes().split(b"\n", 1)
        body = body if body.endswith(b"\n") else body + b"\n"
        (out / "adult.csv").write_bytes(header + b"\n" + body * times)
        for q in QIS:
            name = f"adult_hierarchy_{q}.csv"
            (out / name).write_bytes((data / name).read_bytes())
    return out


def our_search(
    df: Any,
    hierarchies: dict[str, Any],
    limit: float,
    *,
    k: int,
    repeats: int = 1,
    objective: str = "precision",
    model: str | None = None,
    population_size: int = 0,
) -> dict[str, Any]:
    """Run our search in process (the one place that calls it; adapt here when its API moves).

    The Lattice is built as ``riskcore anonymize`` builds it for ``--k K
    --max-suppression LIMIT`` (no sensitive column, missing values their own),
    plus the options of ``model`` (:func:`model_options`; occupation sensitive for
    the attribute models; the QIs are the keys of ``hierarchies``), afresh for each
    of ``repeats`` runs (nothing cached between them); the figures are the last
    run's, as ARX's warm figures are its last run's.
    """
    from riskcore.criteria import Targets
    from riskcore.deidentify.search.lattice import Lattice
    from riskcore.deidentify.search.run import search

    options, sensitive, _ = model_options(model, population_size)
    targets = Targets.of(k=None if k <= 1 else k, max_suppression=limit, **options)
    for _ in range(max(repeats, 1)):
        t0, c0 = time.perf_counter(), time.process_time()
        lattice = Lattice(df, hierarchies, sensitive=sensitive, targets=targets)
        t1, c1 = time.perf_counter(), time.process_time()
        result = search(lattice, objective=objective, alternatives=False)
        t2, c2 = time.perf_counter(), time.process_time()
    best = result.best
    return {
        "levels": None
        if best is None
        else dict(zip(lattice.quasi_identifiers, best.levels, strict=True)),
        "loss": None if best is None else best.loss(objective),
        "suppressed": None if best is None else best.suppressed,
        "evaluated": result.evaluated,
        "needed": result.needed,
        "lattice_size": result.lattice_size,
        "lattice_seconds": t1 - t0,
        "search_seconds": t2 - t1,
        "lattice_cpu_seconds": c1 - c0,
        "search_cpu_seconds": c2 - c1,
    }


def agreement(arx: dict[str, Any], ours: dict[str, Any]) -> str:
    """Return "yes", "tie" (same loss, another node), "same node" (another loss: ARX's
    non-monotone entropy charges suppressed records, ours does not) or "NO"."""
    if arx["loss"] is None or ours["loss"] is None:
        return "yes" if arx["loss"] is ours["loss"] else "NO"
    if abs(arx["loss"] - ours["loss"]) > 1e-9 * max(1.0, abs(arx["loss"])):
        return "same node" if arx["levels"] == ours["levels"] else "NO"
    return "yes" if arx["levels"] == ours["levels"] else "tie"


def _levels(run: dict[str, Any]) -> str:
    """Return an optimum's levels in QI order ("0-4-1-..."), "none" without one."""
    return "-".join(str(v) for v in run["levels"].values()) if run["levels"] else "none"


def _num(x: float | None, spec: str) -> str:
    """Format a figure, "none" when there is no optimum."""
    return "none" if x is None else format(x, spec)


def compare_models(
    home: Path, data: Path, runs: list[tuple[str, int]], limits: list[float], args: Any
) -> list[dict[str, Any]]:
    """Print issue 39's table: ARX and our search under one more privacy model each."""
    df, hierarchies = load_adult(data, {})
    hier8 = {q: hierarchies[q] for q in QIS_8}
    print(
        f"ARX's Adult ({len(df):,} rows, {len(QIS_8)} QIs: {', '.join(QIS_8)}; "
        f"{SENSITIVE} sensitive for the attribute models), k = {args.model_k} "
        f"({'none' if args.model_k <= 1 else 'a target'}), precision; warm: the last of "
        f"{args.repeats} runs (ARX: one JVM per model; ours: one process); our likeness "
        f"models against the {LIKENESS_REFERENCE[0]}'s distribution"
    )
    print()
    cli_head = " | CLI same node |" if args.with_cli else " |"
    print(
        "| model | N | suppression | ARX optimum | ARX loss | our optimum | our loss "
        "| same optimum | suppressed ARX / ours | nodes: ours / ARX checked "
        "| ARX search (warm) | our search" + cli_head
    )
    print(
        "|---|---:|---|---|---:|---|---:|---|---:|---:|---:|---:|"
        + ("---|" if args.with_cli else "")
    )
    rows = []
    for spec, big_n in runs:
        arx = run_arx(
            home,
            data,
            limits,
            k=args.model_k,
            metric="precision",
            repeats=args.repeats,
            model=spec,
            population_size=big_n,
        )
        for w in arx:
            lim = w["suppression_limit"]
            o = our_search(
                df,
                hier8,
                lim,
                k=args.model_k,
                repeats=args.repeats,
                model=spec,
                population_size=big_n,
            )
            cli = ""
            if args.with_cli:
                c = our_cli(data, lim, k=args.model_k, model=spec, population_size=big_n)
                cli = f" {'yes' if c['levels'] == o['levels'] else c['levels']} |"
            agree = agreement(w, o)
            shown_n = big_n if spec.startswith("population") else ""
            print(
                f"| {spec} | {shown_n} | {lim:.0%} | {_levels(w)} | {_num(w['loss'], '.9f')} "
                f"| {_levels(o)} | {_num(o['loss'], '.9f')} | {agree} "
                f"| {_num(w['suppressed'], ',')} / {_num(o['suppressed'], ',')} "
                f"| {o['evaluated']:,} / {w['checked']:,} | {w['search_seconds']:.2f} s "
                f"| {o['search_seconds']:.2f} s |{cli}",
                flush=True,
            )
            rows.append(
                {
                    "model": spec,
                    "population_size": big_n,
                    "arx_warm": w,
                    "ours": o,
                    "home": str(home),
                }
            )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end")
    if args.exhaustive:
        for row in rows:
            if agreement(row["arx_warm"], row["ours"]) != "yes":
                exhaustive(df, hier8, row)
    return rows


def exhaustive(df: Any, hierarchies: dict[str, Any], row: dict[str, Any]) -> None:
    """Judge every node by our verdict; print the least-loss node under our rule and ARX's.

    Our rule: the classes that break the model are suppressed within the limit
    and the release is judged again (:func:`riskcore.criteria.evaluate`). ARX's
    rule for a class-based model (beta-likeness, delta-disclosure): the node
    passes when the classes that break it, judged against the input's
    distribution, fit the limit (ARX's ``HashGroupify.analyzeWithEarlyAbort``:
    the release is not judged again). For the whole-release models ARX's rule is
    its estimator's, not emulated here: the node's estimates are printed instead
    (ours; ARX's with ``ArxUniques``, compiled by ``build_arx.sh``).
    The precision loss of a node x with s of n records suppressed:
    ((n - s) mean_q(x_q / h_q) + s) / n.
    """
    import numpy as np

    from riskcore.criteria import Targets
    from riskcore.deidentify.search.lattice import Lattice

    w, spec, big_n = row["arx_warm"], row["model"], row["population_size"]
    limit = w["suppression_limit"]
    options, sensitive, _ = model_options(spec, big_n)
    targets = Targets.of(max_suppression=limit, **options)
    lattice = Lattice(df, hierarchies, sensitive=sensitive, targets=targets)
    n = len(df)
    best: dict[str, tuple[float, tuple[int, ...], int] | None] = {"ours": None, "ARX": None}
    for node in lattice.nodes():
        _, _, verdict = lattice.judge(node)
        if not verdict.within_limit or verdict.released == 0:
            continue
        mean = sum(x / h for x, h in zip(node, lattice.heights, strict=True)) / len(node)
        loss = ((n - verdict.suppressed) * mean + verdict.suppressed) / n
        for rule, passes in (("ours", verdict.passed), ("ARX", bool(sensitive))):
            held = best[rule]
            if passes and (held is None or loss < held[0] - 1e-12):
                best[rule] = (loss, tuple(node), verdict.suppressed)
    print(f"\n{spec} at {limit:.0%}, every one of the {lattice.size:,} nodes judged:")
    for rule, held in best.items():
        if rule == "ARX" and not sensitive:
            continue
        what = (
            "none"
            if held is None
            else (f"{'-'.join(map(str, held[1]))}, loss {held[0]:.9f}, {held[2]:,} suppressed")
        )
        label = {"ours": "our", "ARX": "ARX's"}[rule]
        print(f"  least loss under {label} rule: {what}")
    if not spec.startswith("population"):
        return
    crit = targets.criteria[0]
    for who, run in (("ARX", w), ("our", row["ours"])):
        if run["levels"] is None:
            continue
        node = tuple(run["levels"].values())
        _, ev = lattice.evidence(node)
        sizes = ev.sizes[ev.present].astype(int)
        hist = ",".join(f"{i}:{c}" for i, c in enumerate(np.bincount(sizes)) if c)
        ours = crit.resolved(ev).uniques(ev)
        theirs = arx_uniques(Path(row["home"]), hist, big_n)
        print(
            f"  {who} optimum {'-'.join(map(str, node))} as the table is "
            f"({int((sizes == 1).sum()):,} sample uniques): population uniques ours {ours:.6g}, "
            f"ARX {theirs}"
        )


def arx_uniques(home: Path, histogram: str, population_size: int) -> dict[str, float]:
    """Return ARX's estimates of the population uniques of a histogram ("size:count,...")."""
    cmd = ["java", "-cp", (home / "classpath").read_text().strip(), "ArxUniques"]
    done = subprocess.run(
        [*cmd, histogram, str(population_size)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"ArxUniques failed (rebuild with build_arx.sh):\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> int:
    """Print the comparison table (or how to build ARX); return the exit code."""
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--arx-home", default=os.environ.get("ARX_HOME", "/work/arx"))
    p.add_argument("--k", type=int, default=5)
    p.add_argument(
        "--likeness-reference",
        choices=("release", "input"),
        default="release",
        help="--models: our beta-likeness and delta-disclosure judged against the release's "
        "distribution (our default) or the input's (ARX's rule)",
    )
    p.add_argument("--suppression", default="0,0.02,0.04", help="limits, comma-separated")
    p.add_argument(
        "--repeats", type=int, default=5, help="runs per setting in one JVM / one process"
    )
    p.add_argument(
        "--process-repeats",
        type=int,
        default=1,
        help="whole-process runs per limit, ARX's and ours alternating; the best is shown",
    )
    p.add_argument(
        "--times", type=int, default=1, help="ARX's Adult repeated this many times (issue 38: 30)"
    )
    p.add_argument("--extra-metrics", default="", help="ARX alone: loss,entropy")
    p.add_argument("--json", action="store_true", help="print every figure as JSON too")
    p.add_argument(
        "--models",
        default="",
        help="issue 39: compare these privacy models instead of k ('all' or driver specs, "
        "comma-separated, e.g. beta-basic:5,average-risk:0.05)",
    )
    p.add_argument("--model-k", type=int, default=1, help="k beside --models (1: none)")
    p.add_argument(
        "--population-size", type=int, default=POPULATION, help="N of a population-uniqueness spec"
    )
    p.add_argument("--with-cli", action="store_true", help="--models: riskcore anonymize too")
    p.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="our CLI's runs in this environment as given (with PYTHONDONTWRITEBYTECODE "
        "every run compiles riskcore from source); default: compiled modules cached, as "
        "installed",
    )
    p.add_argument(
        "--exhaustive",
        action="store_true",
        help="--models: judge every node where the optima differ (our rule and ARX's)",
    )
    args = p.parse_args()
    home = Path(args.arx_home)
    LIKENESS_REFERENCE[0] = args.likeness_reference
    if not arx_present(home):
        print(BUILD.format(home=home))
        return 0
    data = repeated_adult(home, args.times)
    limits = [float(s) for s in args.suppression.split(",")]
    if args.models:
        if args.models == "all":
            runs = MODELS
        else:
            runs = [(m, args.population_size) for m in args.models.split(",")]
        rows = compare_models(home, data, runs, limits, args)
        if args.json:
            print(json.dumps(rows, indent=1))
        return 0

    # ARX: a fresh JVM per setting (whole process), then one warm JVM for all settings
    # the whole processes: best of --process-repeats, alternating ARX and ours (same load)
    cold: list[dict[str, Any]] = []
    cli: list[dict[str, Any]] = []
    env, bytecode = cli_env(not args.no_bytecode_cache)
    if not args.no_bytecode_cache:
        our_cli(data, limits[0], k=args.k, env=env)  # untimed: fills the bytecode cache
    for s in limits:
        runs_arx, runs_ours = [], []
        for _ in range(max(args.process_repeats, 1)):
            runs_arx.append(run_arx(home, data, [s], k=args.k, metric="precision", repeats=1)[0])
            runs_ours.append(our_cli(data, s, k=args.k, env=env))
        cold.append(_best_of(runs_arx, "process_seconds", "process_cpu_seconds"))
        cli.append(_best_of(runs_ours, "seconds", "cpu_seconds"))
    warm = run_arx(home, data, limits, k=args.k, metric="precision", repeats=args.repeats)
    phases: dict[str, Any] = {}
    df, hierarchies = load_adult(data, phases)
    ours = [our_search(df, hierarchies, s, k=args.k, repeats=args.repeats) for s in limits]
    if ours[0]["levels"] is not None:
        write_release(df, hierarchies, list(ours[0]["levels"].values()), phases)

    load = os.getloadavg()[0]
    print(
        f"ARX's Adult ({len(df):,} rows, {len(QIS)} QIs, {ours[0]['lattice_size']:,} nodes), "
        f"k = {args.k}, precision; warm: the last of {args.repeats} runs in one JVM (ARX) "
        f"and in one Python process (ours); our CLI: {bytecode}; "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    print()
    print(
        "| suppression | ARX whole process | ours whole CLI | ours / ARX (target <= 0.5) "
        "| ARX search (warm) | our search "
        "| nodes: ours / ARX checked (touched) | same optimum | loss ARX / ours "
        "| suppressed ARX / ours |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---|---:|")
    rows = []
    for s, c, w, cl, o in zip(limits, cold, warm, cli, ours, strict=True):
        if cl["levels"] != o["levels"]:
            print(f"note: at {s:.0%} the CLI chose {cl['levels']}, the search {o['levels']}")
        agree = agreement(w, o)
        print(
            f"| {s:.0%} | {c['process_seconds']:.1f} s | {cl['seconds']:.1f} s "
            f"| {cl['seconds'] / c['process_seconds']:.2f} "
            f"| {w['search_seconds']:.2f} s | {o['search_seconds']:.2f} s "
            f"| {o['evaluated']:,} / {w['checked']:,} ({w['materialized']:,}) | {agree} "
            f"| {_num(w['loss'], '.6f')} / {_num(o['loss'], '.6f')} "
            f"| {_num(w['suppressed'], ',')} / {_num(o['suppressed'], ',')} |"
        )
        rows.append(
            {"limit": s, "arx_cold": c, "arx_warm": w, "cli": cl, "ours": o, "agree": agree}
        )
    print()
    print("CPU seconds (user + sys; steadier than wall time on a shared machine):")
    print()
    print(
        "| suppression | ARX whole process | ours whole CLI | ours / ARX (target <= 0.5) "
        "| ARX anonymize() (warm, its thread) | our Lattice + search | our search |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for s, c, w, cl, o in zip(limits, cold, warm, cli, ours, strict=True):
        print(
            f"| {s:.0%} | {c['process_cpu_seconds']:.1f} | {cl['cpu_seconds']:.1f} "
            f"| {cl['cpu_seconds'] / c['process_cpu_seconds']:.2f} "
            f"| {w['anonymize_cpu_seconds']:.2f} "
            f"| {o['lattice_cpu_seconds'] + o['search_cpu_seconds']:.2f} "
            f"| {o['search_cpu_seconds']:.2f} |"
        )
    print()
    print(
        f"Our phases in this process (seconds wall / CPU; the release at {limits[0]:.0%}'s "
        f"optimum; load average {os.getloadavg()[0]:.1f}):"
    )
    print()
    print("| phase | wall | CPU |")
    print("|---|---:|---:|")
    for phase, (wall, cpu) in phases.items():
        print(f"| {phase} | {wall:.2f} | {cpu:.2f} |")
    for s, w, o in zip(limits, warm, ours, strict=True):
        if agreement(w, o) != "yes":
            print(f"at {s:.0%}: ARX {w['levels']}, ours {o['levels']}")

    extra = [m for m in args.extra_metrics.split(",") if m]
    if extra:
        print()
        print("Other quality models: ARX (warm JVM) and our search under the matching objective:")
        print()
        print(
            "| model (ours) | suppression | ARX optimum (levels in QI order) | ARX loss "
            "| our optimum | our loss | same optimum | ARX search | our search |"
        )
        print("|---|---|---|---:|---|---:|---|---:|---:|")
        ours_of = {"loss": "loss_geometric", "entropy": "entropy"}
        for m in extra:
            for r in run_arx(home, data, limits, k=args.k, metric=m, repeats=args.repeats):
                lim = r["suppression_limit"]
                o = our_search(df, hierarchies, lim, k=args.k, objective=ours_of.get(m, m))
                print(
                    f"| {m} ({ours_of.get(m, m)}) | {lim:.0%} | {_levels(r)} "
                    f"| {_num(r['loss'], '.6g')} | {_levels(o)} | {_num(o['loss'], '.6g')} "
                    f"| {agreement(r, o)} | {r['search_seconds']:.2f} s "
                    f"| {o['search_seconds']:.2f} s |"
                )
                rows.append({"metric": m, "arx_warm": r, "ours": o})
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
