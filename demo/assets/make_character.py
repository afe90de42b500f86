#!/usr/bin/env python3
"""Writes the demo's character and its clip: character.gltf (a 22-joint humanoid, metres, y up,
+z forward: nodes with translations, a skin of every joint, its buffer in a data: URI) and
walk.bvh (the same joints, the same offsets, a one-second walk cycle at 30 frames per second,
looping). Python's standard library only; run it from anywhere, it writes beside itself."""
import base64
import json
import math
import os
import struct

# name, parent, offset from the parent (metres)
JOINTS = [
    ("hips", None, (0.0, 0.95, 0.0)),
    ("spine", "hips", (0.0, 0.10, 0.0)),
    ("chest", "spine", (0.0, 0.15, 0.0)),
    ("upper_chest", "chest", (0.0, 0.15, 0.01)),
    ("neck", "upper_chest", (0.0, 0.14, 0.0)),
    ("head", "neck", (0.0, 0.10, 0.02)),
    ("left_shoulder", "upper_chest", (0.05, 0.10, 0.0)),
    ("left_upper_arm", "left_shoulder", (0.13, 0.0, 0.0)),
    ("left_lower_arm", "left_upper_arm", (0.0, -0.28, 0.0)),
    ("left_hand", "left_lower_arm", (0.0, -0.25, 0.0)),
    ("right_shoulder", "upper_chest", (-0.05, 0.10, 0.0)),
    ("right_upper_arm", "right_shoulder", (-0.13, 0.0, 0.0)),
    ("right_lower_arm", "right_upper_arm", (0.0, -0.28, 0.0)),
    ("right_hand", "right_lower_arm", (0.0, -0.25, 0.0)),
    ("left_upper_leg", "hips", (0.09, -0.05, 0.0)),
    ("left_lower_leg", "left_upper_leg", (0.0, -0.42, 0.0)),
    ("left_foot", "left_lower_leg", (0.0, -0.41, 0.0)),
    ("left_toes", "left_foot", (0.0, -0.06, 0.13)),
    ("right_upper_leg", "hips", (-0.09, -0.05, 0.0)),
    ("right_lower_leg", "right_upper_leg", (0.0, -0.42, 0.0)),
    ("right_foot", "right_lower_leg", (0.0, -0.41, 0.0)),
    ("right_toes", "right_foot", (0.0, -0.06, 0.13)),
]
FRAMES = 30
RATE = 30
HERE = os.path.dirname(os.path.abspath(__file__))


def write_gltf(path):
    index = {name: i for i, (name, _, _) in enumerate(JOINTS)}
    nodes = []
    for name, _, offset in JOINTS:
        node = {"name": name, "translation": list(offset)}
        children = [index[n] for n, p, _ in JOINTS if p == name]
        if children:
            node["children"] = children
        nodes.append(node)
    # Inverse bind matrices: each joint's rest world position undone (the rest has no rotation).
    world = {}
    matrices = b""
    for name, parent, offset in JOINTS:
        base = world[parent] if parent else (0.0, 0.0, 0.0)
        world[name] = tuple(b + o for b, o in zip(base, offset))
        x, y, z = world[name]
        matrices += struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1)
    document = {
        "asset": {"version": "2.0", "generator": "reach demo/assets/make_character.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "skins": [{"joints": list(range(len(JOINTS))), "inverseBindMatrices": 0}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": len(JOINTS), "type": "MAT4"}],
        "bufferViews": [{"buffer": 0, "byteLength": len(matrices)}],
        "buffers": [{"byteLength": len(matrices),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(matrices).decode()}],
    }
    with open(path, "w") as out:
        json.dump(document, out, indent=1)
        out.write("\n")


def walk_angles(name, phase):
    """Degrees about z, x and y for a joint at a phase of the cycle (0 to 1): legs swing about x,
    knees bend on the way forward, arms swing against the legs, the spine twists and the hips
    bob and sway."""
    s = math.sin(2 * math.pi * phase)
    c = math.cos(2 * math.pi * phase)
    side = 1 if name.startswith("left") else -1
    z = x = y = 0.0
    if name.endswith("upper_leg"):
        x = -28 * s * side
    elif name.endswith("lower_leg"):
        x = 30 + 30 * math.sin(2 * math.pi * phase + (0 if side > 0 else math.pi) - 1.2)
    elif name.endswith("foot"):
        x = -10 * s * side
    elif name.endswith("upper_arm"):
        x = 24 * s * side
        z = 6 * side  # a little away from the body
    elif name.endswith("lower_arm"):
        x = -18 - 10 * s * side
    elif name == "spine":
        y = 6 * s
    elif name == "chest":
        y = -8 * s
    elif name == "hips":
        z = 3 * c
    return z, x, y


def write_bvh(path):
    lines = ["HIERARCHY"]
    children = {name: [n for n, p, _ in JOINTS if p == name] for name, _, _ in JOINTS}

    def joint(name, depth):
        pad = "  " * depth
        offset = next(o for n, _, o in JOINTS if n == name)
        lines.append(f"{pad}{'ROOT' if depth == 0 else 'JOINT'} {name}")
        lines.append(f"{pad}{{")
        lines.append(f"{pad}  OFFSET {offset[0]:.4f} {offset[1]:.4f} {offset[2]:.4f}")
        if depth == 0:
            lines.append(f"{pad}  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation")
        else:
            lines.append(f"{pad}  CHANNELS 3 Zrotation Xrotation Yrotation")
        for child in children[name]:
            joint(child, depth + 1)
        if not children[name]:
            lines.append(f"{pad}  End Site")
            lines.append(f"{pad}  {{")
            tip = {"left_hand": (0, -0.08, 0), "right_hand": (0, -0.08, 0), "head": (0, 0.18, 0)}.get(name, (0, 0, 0.05))
            lines.append(f"{pad}    OFFSET {tip[0]:.4f} {tip[1]:.4f} {tip[2]:.4f}")
            lines.append(f"{pad}  }}")
        lines.append(f"{pad}}}")

    joint("hips", 0)
    order = []

    def collect(name):
        order.append(name)
        for child in children[name]:
            collect(child)

    collect("hips")
    lines += ["MOTION", f"Frames: {FRAMES}", f"Frame Time: {1 / RATE:.6f}"]
    for f in range(FRAMES):
        phase = f / FRAMES
        values = []
        for name in order:
            if name == "hips":
                bob = 0.02 * math.cos(4 * math.pi * phase)
                values += [0.0, 0.95 + bob, 0.0]
            values += walk_angles(name, phase)
        lines.append(" ".join(f"{v:.4f}" for v in values))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_gltf(os.path.join(HERE, "character.gltf"))
    write_bvh(os.path.join(HERE, "walk.bvh"))
