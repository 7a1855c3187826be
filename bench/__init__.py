"""Measurement tooling beside the product: benchmarks (`verbatim bench ...`), evaluations
(`verbatim eval ...`, in evals/), their reports and plots, and the synthetic stores they build.

No product module imports this package (tests/unit/test_layers.py checks it); its commands reach the CLI
through the `verbatim.commands` entry point. Like tests/, it may hold SQL that builds and probes
synthetic stores."""
