"""Throughput, compile-time and soak benchmarks: `python -m benchmarks.engine_speed` from a checkout's root.

Installed as `kbenv.benchmarks`; in a checkout `import benchmarks` gives that same package (kbenv.bundled)."""

if __name__ != "kbenv.benchmarks":  # the checkout's folder, imported by its own name: the one package
    from kbenv import bundled

    bundled.become(__name__)
