/* The assimp oracle tests' lookup of a node by name in assimp's scene. */
#ifndef REACH_ASSIMP_NODES_H
#define REACH_ASSIMP_NODES_H

#include <assimp/scene.h>
#include <string.h>

static inline const struct aiNode *assimp_find_node(const struct aiNode *node, const char *name) {
    if (strcmp(node->mName.data, name) == 0) return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i) {
        const struct aiNode *found = assimp_find_node(node->mChildren[i], name);
        if (found) return found;
    }
    return NULL;
}

#endif
