#!/usr/bin/env python3
"""gltf_models.py: the glTF reader on the Khronos glTF 2.0 samples Debian ships in
assimp-testmodels (/usr/share/assimp/models/glTF2). Every .gltf and .glb found there must be in
the table below: loaded with its triangle count, or refused with its error line. For the files
that load, the count is also worked out here from the JSON (the scene's nodes, each mesh
primitive's index or POSITION count by its mode), independently of the C reader.

Usage: gltf_models.py GLTF_INFO DIR. Exit 77 (skipped) when DIR is absent (the package
assimp-testmodels is not installed: scripts/setup.sh test installs it)."""
import json
import os
import struct
import subprocess
import sys

# path under DIR: ("load", triangles) or ("refuse", a piece of the error line)
TABLE = {
    "2CylinderEngine-glTF-Binary/2CylinderEngine.glb": ("load", 121496),
    "BoxBadNormals-glTF-Binary/BoxBadNormals.glb": ("load", 12),
    "BoxTexcoords-glTF/boxTexcoords.gltf": ("load", 12),
    "BoxTextured-glTF-Binary/BoxTextured.glb": ("load", 12),
    "BoxTextured-glTF-Embedded/BoxTextured.gltf": ("load", 12),
    # KHR_materials_pbrSpecularGlossiness is used, not required: the geometry loads
    "BoxTextured-glTF-pbrSpecularGlossiness/BoxTextured.gltf": ("load", 12),
    "BoxTextured-glTF-techniqueWebGL/BoxTextured.gltf": (
        "refuse", "extensionsRequired[0]: the file requires KHR_technique_webgl"),
    "BoxTextured-glTF/BoxTextured.gltf": ("load", 12),
    "BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb": (
        "refuse", "accessors[2]: element 0 (POSITION of meshes[0].primitives[0]) is not finite"),
    "ClearCoat-glTF/ClearCoatTest.gltf": ("load", 37116),
    "IncorrectVertexArrays/Cube.gltf": (
        "refuse", "bufferViews[2]: byteOffset 504 + byteLength 432 runs past buffers[0] (514 bytes)"),
    "IndexOutOfRange/AllIndicesOutOfRange.gltf": (
        "refuse", "accessors[0]: index 65535 (element 0) is not below the vertex count 24"),
    # assimp loads it with 11 of its 12 triangles
    "IndexOutOfRange/IndexOutOfRange.gltf": (
        "refuse", "accessors[0]: index 255 (element 0) is not below the vertex count 24"),
    "MissingBin/BoxTextured.gltf": (
        "refuse", "buffers[0]: cannot open 'BoxTextured0.bin': No such file or directory"),
    "RecursiveNodes/RecursiveNodes.gltf": (
        "refuse", "nodes[0]: is in a cycle of children (glTF nodes form a forest)"),
    "SchemaFailures/sceneWrongType.gltf": ("refuse", "scene: expected an integer"),
    "TestNoRootNode/NoScene.gltf": ("refuse", "scene: scenes[0] does not exist (0 in the file)"),
    "TestNoRootNode/SceneWithoutNodes.gltf": ("load", 0),
    "cameras/Cameras.gltf": ("load", 2),
    "draco/2CylinderEngine.gltf": (
        "refuse", "the file requires KHR_draco_mesh_compression, which this reader does not"),
    "glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf": ("load", 12),
    "issue_3269/texcoord_crash.gltf": ("load", 10),
    "simple_skin/simple_skin.gltf": ("load", 8),
    "textureTransform/TextureTransformTest.gltf": ("load", 24),
    "wrongTypes/badArray.gltf": ("refuse", "meshes[0].primitives: expected an array"),
    "wrongTypes/badExtension.gltf": (
        "refuse", "baseColorTexture.extensions.KHR_texture_transform: expected an object"),
    "wrongTypes/badNumber.gltf": ("refuse", "materials[0].normalTexture.index: missing"),
    "wrongTypes/badObject.gltf": ("refuse", "materials[0].pbrMetallicRoughness: expected an object"),
    "wrongTypes/badString.gltf": ("refuse", "scenes[0].name: expected a string"),
    "wrongTypes/badUint.gltf": (
        "refuse", "pbrMetallicRoughness.baseColorTexture.index: expected an index into textures"),
}
# glTF-Asset-Generator's Mesh_PrimitiveMode: 00-03 and 07-10 are points and lines (read as
# nothing, with a notice), 04-06 and 11-15 two triangles each (strips, fans, lists).
for i in range(16):
    name = "glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_%02d.gltf" % i
    TABLE[name] = ("load", 0 if i in (0, 1, 2, 3, 7, 8, 9, 10) else 2)


def gltf_json(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        n, kind = struct.unpack_from("<II", data, 12)
        assert kind == 0x4E4F534A
        data = data[20:20 + n]
    return json.loads(data)


def triangles(doc):
    """The scene's triangles by glTF's rules, from the JSON alone."""
    nodes = doc.get("nodes", [])
    if "scene" in doc:
        roots = doc["scenes"][doc["scene"]].get("nodes", [])
    elif doc.get("scenes"):
        roots = doc["scenes"][0].get("nodes", [])
    else:
        children = {c for n in nodes for c in n.get("children", [])}
        roots = [i for i in range(len(nodes)) if i not in children]
    total, stack = 0, list(roots)
    while stack:
        node = nodes[stack.pop()]
        stack.extend(node.get("children", []))
        if "mesh" not in node:
            continue
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            mode = prim.get("mode", 4)
            acc = prim["indices"] if "indices" in prim else prim["attributes"]["POSITION"]
            n = doc["accessors"][acc]["count"]
            total += n // 3 if mode == 4 else max(n - 2, 0) if mode in (5, 6) else 0
    return total


def main():
    if len(sys.argv) != 3:
        print("usage: gltf_models.py GLTF_INFO DIR", file=sys.stderr)
        return 2
    info, root = sys.argv[1], sys.argv[2]
    if not os.path.isdir(root):
        print("gltf_models: skipped: %s is absent (Debian package assimp-testmodels)" % root)
        return 77
    found = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, files in os.walk(root) for f in files
                   if f.endswith((".gltf", ".glb")))
    failures = 0
    for name in found:
        if name not in TABLE:
            print("FAIL %s: not in the table (add it, loaded or refused)" % name)
            failures += 1
    for name in sorted(set(TABLE) - set(found)):
        print("FAIL %s: in the table but not found" % name)
        failures += 1
    names = [n for n in found if n in TABLE]
    paths = [os.path.join(root, n) for n in names]
    out = subprocess.run([info] + paths, capture_output=True, text=True, timeout=60, check=True)
    results = {}
    for line in out.stdout.splitlines():
        if line.startswith("notice: "):
            continue
        for p in paths:
            if line.startswith(p + ": "):
                results[p] = line[len(p) + 2:]
    loaded = refused = 0
    for name, path in zip(names, paths):
        want, what = TABLE[name]
        got = results.get(path, "(no output)")
        if want == "load":
            ok = got.startswith("loaded: %d triangles," % what)
            independent = triangles(gltf_json(path))
            if independent != what:
                print("FAIL %s: the table says %d triangles, the JSON %d" % (name, what, independent))
                failures += 1
            loaded += ok
        else:
            ok = got.startswith("refused: ") and what in got
            refused += ok
        if not ok:
            print("FAIL %s: want %s %r, got %s" % (name, want, what, got))
            failures += 1
        else:
            print("ok   %s: %s" % (name, got))
    print("gltf_models: %d files: %d loaded, %d refused as expected, %d failures"
          % (len(found), loaded, refused, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
