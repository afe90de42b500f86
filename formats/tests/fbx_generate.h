/* FBX files the tests make: a file turned into ASCII FBX by assimp (its key times put in
 * seconds first: assimp 5.2's exporter writes a key at tick k as k seconds), and a small skinned
 * character as glTF to turn. */
#ifndef REACH_FBX_GENERATE_H
#define REACH_FBX_GENERATE_H

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* assimp 5.2 leaks part of what it parsed when it refuses a file: its leak, not reach's. Under
 * AddressSanitizer the leak's stack stops in libstdc++'s operator new (assimp has no frame
 * pointers); reach, in C, allocates nothing through it. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libassimp.so\nleak:libstdc++.so\n"; }

static inline void write_bytes(const char *path, const void *data, size_t length) {
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(data, 1, length, file), length);
    fclose(file);
}

/* The file at source, imported by assimp, its key times put in seconds, exported as ASCII FBX. */
static inline void assimp_to_fbx(const char *source, const char *fbx) {
    const struct aiScene *scene = aiImportFile(source, 0);
    if (!scene) fail_msg("assimp cannot read %s: %s", source, aiGetErrorString());
    struct aiScene *copy = NULL;
    aiCopyScene(scene, &copy);
    aiReleaseImport(scene);
    assert_non_null(copy);
    for (unsigned a = 0; a < copy->mNumAnimations; ++a) {
        struct aiAnimation *animation = copy->mAnimations[a];
        double tps = animation->mTicksPerSecond > 0 ? animation->mTicksPerSecond : 25;
        for (unsigned c = 0; c < animation->mNumChannels; ++c) {
            struct aiNodeAnim *channel = animation->mChannels[c];
            for (unsigned k = 0; k < channel->mNumPositionKeys; ++k)
                channel->mPositionKeys[k].mTime /= tps;
            for (unsigned k = 0; k < channel->mNumRotationKeys; ++k)
                channel->mRotationKeys[k].mTime /= tps;
            for (unsigned k = 0; k < channel->mNumScalingKeys; ++k)
                channel->mScalingKeys[k].mTime /= tps;
        }
        animation->mDuration /= tps;
        animation->mTicksPerSecond = 1;
    }
    if (aiExportScene(copy, "fbxa", fbx, 0) != aiReturn_SUCCESS)
        fail_msg("assimp cannot write %s: %s", fbx, aiGetErrorString());
    aiFreeScene(copy);
}

/* A mesh skinned to an arm (shoulder, elbow, hand) under an armature, beside a prop: the rig is
 * the skin's bones and their ancestors, not the prop nor the mesh's node. The buffer holds a
 * triangle's positions, joints and weights and the joints' inverse bind matrices (assimp 5.2's
 * glTF reader needs them). */
static const char skinned_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,4,5]}],\"nodes\":[{\"name\":\"Armatur"
    "e\",\"scale\":[0.01,0.01,0.01],\"children\":[1]},{\"name\":\"shoulder\",\"translation\":[0,150,0],\"children"
    "\":[2]},{\"name\":\"elbow\",\"translation\":[30,0,0],\"rotation\":[0,0,0.5,0.8660254],\"children\":[3]},{\"n"
    "ame\":\"hand\",\"translation\":[25,0,0]},{\"name\":\"Skin\",\"mesh\":0,\"skin\":0},{\"name\":\"Prop\",\"tran"
    "slation\":[5,0,0]}],\"skins\":[{\"joints\":[1,2,3],\"inverseBindMatrices\":3}],\"meshes\":[{\"primitives\":["
    "{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],\"accessors\":[{\"bufferView\":0,\"compo"
    "nentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"component"
    "Type\":5121,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"V"
    "EC4\"},{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"}],\"bufferViews\":[{\"buffer\""
    ":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":12},{\"buffer\":0,\"by"
    "teOffset\":48,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":96,\"byteLength\":192}],\"buffers\":[{\"byteLe"
    "ngth\":288,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAA"
    "AAAAEAAAACAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAADIQgAAAAAAAAAAAAAAAAAAAAAAAM"
    "hCAAAAAAAAAAAAAAAAAAAAAAAAyEIAAAAAAAAAAAAAFsMAAAAAAACAPwAASEKANK3CAAAAAAAAAACANK1CAABIQgAAAAAAAAAAAAAAAAAAAA"
    "AAAMhCAAAAAGDnEMOzE0TCAAAAAAAAgD8AAEhCgDStwgAAAAAAAAAAgDStQgAASEIAAAAAAAAAAAAAAAAAAAAAAADIQgAAAABg5ynDsxNEwg"
    "AAAAAAAIA/\"}]}";

/* A whole file's bytes (the caller frees them), NUL-terminated; NULL when it cannot be read. */
static inline char *read_bytes(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *length = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc(*length + 1);
    size_t got = bytes ? fread(bytes, 1, *length, file) : 0;
    fclose(file);
    if (bytes) bytes[got] = '\0';
    if (got != *length) {
        free(bytes);
        return NULL;
    }
    return bytes;
}

/* skinned_gltf as the ASCII FBX assimp writes (the caller frees it), made in folder. */
static inline char *skinned_arm_fbx(const char *folder, size_t *length) {
    char gltf[512], fbx[512];
    snprintf(gltf, sizeof gltf, "%s/arm.gltf", folder);
    snprintf(fbx, sizeof fbx, "%s/arm.fbx", folder);
    write_bytes(gltf, skinned_gltf, strlen(skinned_gltf));
    assimp_to_fbx(gltf, fbx);
    char *bytes = read_bytes(fbx, length);
    remove(gltf);
    remove(fbx);
    return bytes;
}

#endif
