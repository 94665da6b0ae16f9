# SPDX-License-Identifier: MIT
# The C quick start of the README in Python: read the heavy-top deck, compile it, step it to
# t = 2 and print the top's state; then the same run as `rodrigues run`, its history as a
# pandas DataFrame. Run (from the source root) against an installed rodrigues:
#   python3 examples/python_quickstart.py
import tempfile

import rodrigues as rd

spec = rd.read_deck("input/heavy_top.yaml")  # 1-2. or rd.Spec() and spec.add_*
model = spec.compile()                       # 3. immutable model
data = model.create_data()                   # 4. state + all workspace
data.initialize()                            # 5. consistent accelerations
data.advance(2.0)                            # 6. or data.step(h)
top = data.node_state("top")                 # numpy arrays
print("t =", data.time, "x =", top.position, "q =", top.orientation)
kinetic, potential = data.energy()
print("energy", kinetic + potential, "J after", data.stats["steps"], "steps")

with tempfile.TemporaryDirectory() as out:
    run = rd.run("input/heavy_top.yaml", out, set={"solver.final_time": 0.5})
    history = run.history                     # pandas, indexed by time
    print(history[["top.x", "top.y", "top.z", "total_energy"]].tail(3))
    assert abs(history["total_energy"].iloc[-1] - history["total_energy"].iloc[0]) < 1
