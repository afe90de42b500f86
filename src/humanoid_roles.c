/* Humanoid roles from bone names and the hierarchy, and the checks on a map of them (see
 * include/reach/humanoid.h). */
#include <string.h>

#include "character_internal.h"
#include "internal.h"
#include "reach/humanoid.h"

static const char *const role_names[REACH_ROLE_COUNT] = {
    "hips",           "spine",           "chest",           "upper_chest",     "neck",
    "head",           "left_shoulder",   "left_upper_arm",  "left_lower_arm",  "left_hand",
    "right_shoulder", "right_upper_arm", "right_lower_arm", "right_hand",      "left_upper_leg",
    "left_lower_leg", "left_foot",       "left_toes",       "right_upper_leg", "right_lower_leg",
    "right_foot",     "right_toes"};

const char *reach_humanoid_role_name(reach_humanoid_role role) {
    return (int)role >= 0 && role < REACH_ROLE_COUNT ? role_names[role] : NULL;
}

int reach_humanoid_role_from_name(const char *name) {
    if (!name) return -1;
    for (int r = 0; r < REACH_ROLE_COUNT; r++)
        if (strcmp(name, role_names[r]) == 0) return r;
    return -1;
}

/* The words a role goes by, side words taken out. A limb part is given as the left role; its
 * right twin lies a fixed distance on (see side_role). */
typedef struct role_word {
    const char *word;
    int role;
} role_word;

static const role_word role_words[] = {
    {"hips", REACH_ROLE_HIPS},
    {"pelvis", REACH_ROLE_HIPS},
    {"neck", REACH_ROLE_NECK},
    {"head", REACH_ROLE_HEAD},
    {"shoulder", REACH_ROLE_LEFT_SHOULDER},
    {"clavicle", REACH_ROLE_LEFT_SHOULDER},
    {"collar", REACH_ROLE_LEFT_SHOULDER},
    {"collarbone", REACH_ROLE_LEFT_SHOULDER},
    {"upperarm", REACH_ROLE_LEFT_UPPER_ARM},
    {"uparm", REACH_ROLE_LEFT_UPPER_ARM},
    {"arm", REACH_ROLE_LEFT_UPPER_ARM},
    {"lowerarm", REACH_ROLE_LEFT_LOWER_ARM},
    {"forearm", REACH_ROLE_LEFT_LOWER_ARM},
    {"hand", REACH_ROLE_LEFT_HAND},
    {"wrist", REACH_ROLE_LEFT_HAND},
    {"upperleg", REACH_ROLE_LEFT_UPPER_LEG},
    {"upleg", REACH_ROLE_LEFT_UPPER_LEG},
    {"thigh", REACH_ROLE_LEFT_UPPER_LEG},
    {"lowerleg", REACH_ROLE_LEFT_LOWER_LEG},
    {"leg", REACH_ROLE_LEFT_LOWER_LEG},
    {"calf", REACH_ROLE_LEFT_LOWER_LEG},
    {"shin", REACH_ROLE_LEFT_LOWER_LEG},
    {"foot", REACH_ROLE_LEFT_FOOT},
    {"ankle", REACH_ROLE_LEFT_FOOT},
    {"toes", REACH_ROLE_LEFT_TOES},
    {"toe", REACH_ROLE_LEFT_TOES},
    {"toebase", REACH_ROLE_LEFT_TOES},
    {"ball", REACH_ROLE_LEFT_TOES},
};

/* Words that say nothing of the role: rig prefixes (VRM's J_Bip_C_, 3ds Max's Bip01). */
static const char *const filler_words[] = {"j", "bip", "bip01", "c", "def", "jnt", "mixamorig"};

static int is_sided(int role) { return role >= REACH_ROLE_LEFT_SHOULDER; }

/* The right role of a left limb part. */
static int side_role(int left_role, int right) {
    if (!right) return left_role;
    return left_role + (left_role < REACH_ROLE_LEFT_UPPER_LEG ? REACH_ROLE_RIGHT_SHOULDER - REACH_ROLE_LEFT_SHOULDER
                                                              : REACH_ROLE_RIGHT_UPPER_LEG - REACH_ROLE_LEFT_UPPER_LEG);
}

#define NAME_KEY_MAX 64
#define WORD_MAX     24

enum { SIDE_NONE = 0, SIDE_LEFT, SIDE_RIGHT };

static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static char lower(char c) { return is_upper(c) ? (char)(c - 'A' + 'a') : c; }

static int in_list(const char *word, const char *const *list, int count) {
    for (int i = 0; i < count; i++)
        if (strcmp(word, list[i]) == 0) return 1;
    return 0;
}

/* Adds one word to the key, or to the side when it is a side word; filler words are dropped. */
static void take_word(const char *word, char *key, size_t *key_length, int *side) {
    if (!word[0]) return;
    if (strcmp(word, "l") == 0 || strcmp(word, "left") == 0) {
        *side = SIDE_LEFT;
        return;
    }
    if (strcmp(word, "r") == 0 || strcmp(word, "right") == 0) {
        *side = SIDE_RIGHT;
        return;
    }
    if (in_list(word, filler_words, (int)(sizeof filler_words / sizeof filler_words[0]))) return;
    size_t n = strlen(word);
    if (*key_length + n >= NAME_KEY_MAX) return;
    memcpy(key + *key_length, word, n + 1);
    *key_length += n;
}

/* The name's key (its words, lower case, side and filler taken out, run together) and side. A
 * word starts at a separator, after a namespace (`mixamorig:`), at a lower-to-upper change of
 * case, at the last capital of a run followed by lower case (`LHip` → `L`, `Hip`) and at a
 * digit-to-letter change. A key run together from lower-case words may still begin with a side. */
static void name_key(const char *name, char *key, int *side) {
    const char *start = name;
    for (const char *p = name; *p; p++)
        if (*p == ':' || *p == '|') start = p + 1;
    size_t key_length = 0;
    key[0] = 0;
    *side = SIDE_NONE;
    char word[WORD_MAX];
    size_t word_length = 0;
    for (const char *p = start;; p++) {
        char c = *p;
        int alnum = is_upper(c) || is_lower(c) || is_digit(c);
        int boundary = !alnum;
        if (alnum && word_length > 0) {
            char prev = p[-1];
            boundary = (is_upper(c) && (is_lower(prev) || is_digit(prev))) ||
                       (is_upper(c) && is_upper(prev) && is_lower(p[1])) || (!is_digit(c) && is_digit(prev));
        }
        if (boundary && word_length > 0) {
            word[word_length] = 0;
            take_word(word, key, &key_length, side);
            word_length = 0;
        }
        if (!c) break;
        if (alnum && word_length + 1 < WORD_MAX) word[word_length++] = lower(c);
    }
    if (*side == SIDE_NONE) {
        if (strncmp(key, "left", 4) == 0 && key[4]) {
            *side = SIDE_LEFT;
            memmove(key, key + 4, strlen(key + 4) + 1);
        } else if (strncmp(key, "right", 5) == 0 && key[5]) {
            *side = SIDE_RIGHT;
            memmove(key, key + 5, strlen(key + 5) + 1);
        }
    }
}

static int depth_of(const reach_skeleton *skeleton, int bone) {
    int depth = 0;
    for (int b = skeleton->parents[bone]; b >= 0; b = skeleton->parents[b])
        depth++;
    return depth;
}

static int descends_from(const reach_skeleton *skeleton, int bone, int ancestor) {
    for (int b = bone; b >= 0; b = skeleton->parents[b])
        if (b == ancestor) return 1;
    return 0;
}

/* The role word a key is, or -1; a numbered key (`neck_01`, `Neck1`) counts as its word. */
static int role_word_of_key(char *key) {
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof role_words / sizeof role_words[0]; i++)
            if (strcmp(key, role_words[i].word) == 0) return (int)i;
        size_t n = strlen(key);
        while (n > 0 && is_digit(key[n - 1]))
            key[--n] = 0;
    }
    return -1;
}

static int role_of_name(const reach_skeleton *skeleton, const char *name, int bone, int hips) {
    char key[NAME_KEY_MAX];
    int side;
    name_key(name, key, &side);
    int i = role_word_of_key(key);
    if (i >= 0) {
        int role = role_words[i].role;
        if (!is_sided(role)) return side == SIDE_NONE ? role : -1;
        if (side == SIDE_NONE) {
            if (hips < 0) return -1; /* the side from the rest pose needs the hips: a second pass */
            reach_real x = reach__bone_world(skeleton, skeleton->rest, bone).translation.x -
                           reach__bone_world(skeleton, skeleton->rest, hips).translation.x;
            if (x == 0) return -1;
            side = x > 0 ? SIDE_LEFT : SIDE_RIGHT;
        }
        return side_role(role, side == SIDE_RIGHT);
    }
    return -1;
}

/* Each role's bone by name: among several, the one nearest the root. */
static void roles_by_name(const reach_skeleton *skeleton, const char *const *names, int hips, int *bones) {
    for (int r = 0; r < REACH_ROLE_COUNT; r++)
        bones[r] = -1;
    for (int b = 0; b < skeleton->bone_count; b++) {
        if (!names[b]) continue;
        int role = role_of_name(skeleton, names[b], b, hips);
        if (role < 0) continue;
        if (bones[role] < 0 || depth_of(skeleton, b) < depth_of(skeleton, bones[role])) bones[role] = b;
    }
}

/* A missing lower or upper limb bone is the parent of the one below it (in a rig whose limb is one
 * bone short that parent is the spine's, and the validation refuses it). */
static void fill_limb(const reach_skeleton *skeleton, int *bones, int upper, int lower_role, int end) {
    if (bones[end] < 0) return;
    if (bones[lower_role] < 0) bones[lower_role] = skeleton->parents[bones[end]];
    if (bones[upper] < 0 && bones[lower_role] >= 0) bones[upper] = skeleton->parents[bones[lower_role]];
}

/* The bones from the hips up to the neck (or the head's parent without one): spine, chest, upper
 * chest, as the header says. */
static void fill_spine(const reach_skeleton *skeleton, int *bones) {
    int hips = bones[REACH_ROLE_HIPS];
    int top = bones[REACH_ROLE_NECK] >= 0 ? bones[REACH_ROLE_NECK] : bones[REACH_ROLE_HEAD];
    if (hips < 0 || top < 0 || !descends_from(skeleton, top, hips)) return;
    int count = 0;
    for (int b = skeleton->parents[top]; b != hips && b >= 0; b = skeleton->parents[b])
        count++;
    int at = count; /* positions from the hips: 0 .. count-1 */
    int chest_at = count >= 3 ? count / 2 : 1;
    for (int b = skeleton->parents[top]; b != hips && b >= 0; b = skeleton->parents[b]) {
        at--;
        if (at == 0)
            bones[REACH_ROLE_SPINE] = b;
        else if (at == count - 1 && count >= 3)
            bones[REACH_ROLE_UPPER_CHEST] = b;
        else if (at == chest_at)
            bones[REACH_ROLE_CHEST] = b;
    }
}

static const int required_roles[] = {REACH_ROLE_HIPS,
                                     REACH_ROLE_HEAD,
                                     REACH_ROLE_LEFT_UPPER_ARM,
                                     REACH_ROLE_LEFT_LOWER_ARM,
                                     REACH_ROLE_LEFT_HAND,
                                     REACH_ROLE_RIGHT_UPPER_ARM,
                                     REACH_ROLE_RIGHT_LOWER_ARM,
                                     REACH_ROLE_RIGHT_HAND,
                                     REACH_ROLE_LEFT_UPPER_LEG,
                                     REACH_ROLE_LEFT_LOWER_LEG,
                                     REACH_ROLE_LEFT_FOOT,
                                     REACH_ROLE_RIGHT_UPPER_LEG,
                                     REACH_ROLE_RIGHT_LOWER_LEG,
                                     REACH_ROLE_RIGHT_FOOT};

reach_status reach_humanoid_find(const reach_skeleton *skeleton, const char *const *names, reach_humanoid *out,
                                 int *missing) {
    REACH_CHECK_ARG(skeleton && skeleton->parents && skeleton->rest && names && out && skeleton->bone_count >= 0);
    int bones[REACH_ROLE_COUNT];
    roles_by_name(skeleton, names, -1, bones);
    if (bones[REACH_ROLE_HIPS] < 0) {
        /* No hips by name: the root that the most named roles descend from. */
        for (int b = 0; b < skeleton->bone_count && bones[REACH_ROLE_HIPS] < 0; b++)
            if (skeleton->parents[b] < 0 && bones[REACH_ROLE_HEAD] >= 0 &&
                descends_from(skeleton, bones[REACH_ROLE_HEAD], b))
                bones[REACH_ROLE_HIPS] = b;
    }
    if (bones[REACH_ROLE_HIPS] >= 0) roles_by_name(skeleton, names, bones[REACH_ROLE_HIPS], bones);
    fill_limb(skeleton, bones, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM, REACH_ROLE_LEFT_HAND);
    fill_limb(skeleton, bones, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM, REACH_ROLE_RIGHT_HAND);
    fill_limb(skeleton, bones, REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG, REACH_ROLE_LEFT_FOOT);
    fill_limb(skeleton, bones, REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG, REACH_ROLE_RIGHT_FOOT);
    fill_spine(skeleton, bones);
    reach_humanoid found;
    memcpy(found.bones, bones, sizeof bones);
    int bad = -1;
    reach_status status = reach_humanoid_validate(skeleton, &found, &bad);
    if (status != REACH_OK) {
        if (missing) *missing = bad;
        return status;
    }
    *out = found;
    return REACH_OK;
}

/* Each role and the one it must descend from (-1: the hips' root). Spine roles and shoulders may be
 * absent, so the check walks to the nearest present one. */
static const int role_above[REACH_ROLE_COUNT] = {
    -1,
    REACH_ROLE_HIPS,
    REACH_ROLE_SPINE,
    REACH_ROLE_CHEST,
    REACH_ROLE_UPPER_CHEST,
    REACH_ROLE_NECK,
    REACH_ROLE_HIPS,
    REACH_ROLE_LEFT_SHOULDER,
    REACH_ROLE_LEFT_UPPER_ARM,
    REACH_ROLE_LEFT_LOWER_ARM,
    REACH_ROLE_HIPS,
    REACH_ROLE_RIGHT_SHOULDER,
    REACH_ROLE_RIGHT_UPPER_ARM,
    REACH_ROLE_RIGHT_LOWER_ARM,
    REACH_ROLE_HIPS,
    REACH_ROLE_LEFT_UPPER_LEG,
    REACH_ROLE_LEFT_LOWER_LEG,
    REACH_ROLE_LEFT_FOOT,
    REACH_ROLE_HIPS,
    REACH_ROLE_RIGHT_UPPER_LEG,
    REACH_ROLE_RIGHT_LOWER_LEG,
    REACH_ROLE_RIGHT_FOOT,
};

reach_status reach_humanoid_validate(const reach_skeleton *skeleton, const reach_humanoid *humanoid, int *bad_role) {
    REACH_CHECK_ARG(skeleton && skeleton->parents && humanoid);
    int bad = -1;
    for (int r = 0; r < REACH_ROLE_COUNT && bad < 0; r++) {
        int b = humanoid->bones[r];
        if (b < -1 || b >= skeleton->bone_count) bad = r;
        for (int other = 0; other < r && bad < 0; other++)
            if (b >= 0 && humanoid->bones[other] == b) bad = r;
    }
    for (size_t i = 0; i < sizeof required_roles / sizeof required_roles[0] && bad < 0; i++)
        if (humanoid->bones[required_roles[i]] < 0) bad = required_roles[i];
    for (int r = 1; r < REACH_ROLE_COUNT && bad < 0; r++) {
        int b = humanoid->bones[r];
        if (b < 0) continue;
        int above = role_above[r];
        while (humanoid->bones[above] < 0)
            above = role_above[above];
        if (!descends_from(skeleton, b, humanoid->bones[above]) || b == humanoid->bones[above]) bad = r;
    }
    if (bad >= 0) {
        if (bad_role) *bad_role = bad;
        return REACH_ERROR_BAD_CHAIN;
    }
    return REACH_OK;
}
