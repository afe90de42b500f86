/* URDF's XML into plain records, through expat. Document type declarations are refused outright:
 * URDF needs none, and refusing them means no entity (internal, as in "billion laughs", or
 * external, naming a file) is ever declared, expanded or read. */
#include <expat.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "urdf_internal.h"

/* URDF nests five deep (robot, link, visual, geometry, mesh); a little room beyond for
 * extensions, and a bound on what a hostile file can make the parser hold. */
#define MAX_DEPTH 64

/* Expat takes its input in int-sized pieces. */
#define CHUNK (1 << 20)

typedef struct parse_state {
    XML_Parser parser;
    urdf_document *doc;
    int depth;
    int seen_robot;
    urdf_joint *joint; /* the joint element being read, at depth 2 */
    reach_status status;
    char *error;
    size_t error_size;
} parse_state;

static int current_line(const parse_state *s) { return (int)XML_GetCurrentLineNumber(s->parser); }

/* Stops the parse with a message; the first failure is the one reported. */
static void fail(parse_state *s, reach_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fail(parse_state *s, reach_status status, const char *format, ...) {
    if (s->status != REACH_OK) return;
    s->status = status;
    if (s->error && s->error_size > 0) {
        int used = snprintf(s->error, s->error_size, "line %d: ", current_line(s));
        if (used >= 0 && (size_t)used < s->error_size) {
            va_list args;
            va_start(args, format);
            vsnprintf(s->error + used, s->error_size - (size_t)used, format, args);
            va_end(args);
        }
    }
    XML_StopParser(s->parser, XML_FALSE);
}

static const char *attribute(const char **attributes, const char *name) {
    for (int i = 0; attributes[i]; i += 2)
        if (strcmp(attributes[i], name) == 0) return attributes[i + 1];
    return NULL;
}

static char *copy_string(parse_state *s, const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (!copy) {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "out of memory");
        return NULL;
    }
    memcpy(copy, text, n);
    return copy;
}

/* Exactly `count` finite numbers separated by white space into out; 0 and a message otherwise. */
static int read_numbers(parse_state *s, const char *text, double *out, int count, const char *element,
                        const char *name) {
    const char *at = text;
    for (int i = 0; i < count; ++i) {
        char *end;
        double v = strtod(at, &end);
        if (end == at) {
            fail(s, REACH_ERROR_INVALID_ARGUMENT, "<%s %s=\"%s\">: expected %d number%s", element, name, text, count,
                 count == 1 ? "" : "s");
            return 0;
        }
        if (!isfinite(v)) {
            fail(s, REACH_ERROR_NOT_FINITE, "<%s %s=\"%s\">: a number is not finite", element, name, text);
            return 0;
        }
        out[i] = v;
        at = end;
    }
    while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')
        ++at;
    if (*at != '\0') {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "<%s %s=\"%s\">: expected %d number%s", element, name, text, count,
             count == 1 ? "" : "s");
        return 0;
    }
    return 1;
}

/* An optional attribute of `count` numbers: kept as it was (its default) when absent. */
static int optional_numbers(parse_state *s, const char **attributes, const char *name, double *out, int count,
                            const char *element) {
    const char *text = attribute(attributes, name);
    return !text || read_numbers(s, text, out, count, element, name);
}

static const char *required(parse_state *s, const char **attributes, const char *name, const char *element) {
    const char *text = attribute(attributes, name);
    if (!text) fail(s, REACH_ERROR_INVALID_ARGUMENT, "<%s> has no %s attribute", element, name);
    return text;
}

/* Grows an array of items of `size` bytes to hold one more; NULL when memory runs out. */
static void *grow(parse_state *s, void *items, int count, int *capacity, size_t size) {
    if (count < *capacity) return items;
    if (*capacity > INT_MAX / 2 - 8) {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "too many elements");
        return NULL;
    }
    int wanted = *capacity ? *capacity * 2 : 16;
    void *bigger = realloc(items, (size_t)wanted * size);
    if (!bigger) {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "out of memory");
        return NULL;
    }
    *capacity = wanted;
    return bigger;
}

static void start_link(parse_state *s, const char **attributes) {
    const char *name = required(s, attributes, "name", "link");
    if (!name) return;
    urdf_document *doc = s->doc;
    urdf_link *links = grow(s, doc->links, doc->link_count, &doc->link_capacity, sizeof *links);
    if (!links) return;
    doc->links = links;
    urdf_link *link = &links[doc->link_count];
    link->name = copy_string(s, name);
    link->line = current_line(s);
    if (link->name) ++doc->link_count;
}

static int joint_type(const char *text, urdf_joint_type *type) {
    static const struct {
        const char *name;
        urdf_joint_type type;
    } types[] = {{"revolute", URDF_REVOLUTE},
                 {"continuous", URDF_CONTINUOUS},
                 {"prismatic", URDF_PRISMATIC},
                 {"fixed", URDF_FIXED}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(text, types[i].name) == 0) {
            *type = types[i].type;
            return 1;
        }
    return 0;
}

static void start_joint(parse_state *s, const char **attributes) {
    const char *name = required(s, attributes, "name", "joint");
    const char *type_text = name ? required(s, attributes, "type", "joint") : NULL;
    if (!type_text) return;
    urdf_joint_type type;
    if (!joint_type(type_text, &type)) {
        if (strcmp(type_text, "floating") == 0 || strcmp(type_text, "planar") == 0)
            fail(s, REACH_ERROR_INVALID_ARGUMENT,
                 "joint '%s': type '%s' is not supported (reach has revolute, continuous, prismatic and fixed joints)",
                 name, type_text);
        else
            fail(s, REACH_ERROR_INVALID_ARGUMENT, "joint '%s': unknown type '%s'", name, type_text);
        return;
    }
    urdf_document *doc = s->doc;
    urdf_joint *joints = grow(s, doc->joints, doc->joint_count, &doc->joint_capacity, sizeof *joints);
    if (!joints) return;
    doc->joints = joints;
    urdf_joint *joint = &joints[doc->joint_count];
    memset(joint, 0, sizeof *joint);
    joint->name = copy_string(s, name);
    if (!joint->name) return;
    joint->line = current_line(s);
    joint->type = type;
    joint->axis[0] = 1; /* URDF's default axis */
    joint->multiplier = 1;
    ++doc->joint_count;
    s->joint = joint;
}

/* A joint's parent or child: <parent link="name"/>, given once. */
static void joint_link(parse_state *s, char **slot, const char **attributes, const char *element) {
    const char *name = required(s, attributes, "link", element);
    if (!name) return;
    if (*slot) {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "joint '%s': a second <%s>", s->joint->name, element);
        return;
    }
    *slot = copy_string(s, name);
}

static void start_joint_part(parse_state *s, const char *element, const char **attributes) {
    urdf_joint *j = s->joint;
    if (strcmp(element, "origin") == 0) {
        if (optional_numbers(s, attributes, "xyz", j->xyz, 3, element))
            optional_numbers(s, attributes, "rpy", j->rpy, 3, element);
    } else if (strcmp(element, "parent") == 0) {
        joint_link(s, &j->parent, attributes, element);
    } else if (strcmp(element, "child") == 0) {
        joint_link(s, &j->child, attributes, element);
    } else if (strcmp(element, "axis") == 0) {
        optional_numbers(s, attributes, "xyz", j->axis, 3, element);
    } else if (strcmp(element, "limit") == 0) {
        j->has_limit = 1;
        if (optional_numbers(s, attributes, "lower", &j->lower, 1, element))
            optional_numbers(s, attributes, "upper", &j->upper, 1, element);
    } else if (strcmp(element, "mimic") == 0) {
        const char *leader = required(s, attributes, "joint", element);
        if (!leader || !optional_numbers(s, attributes, "multiplier", &j->multiplier, 1, element) ||
            !optional_numbers(s, attributes, "offset", &j->offset, 1, element))
            return;
        free(j->mimic_joint);
        j->mimic_joint = copy_string(s, leader);
        j->mimic_line = current_line(s);
    }
    /* dynamics, calibration, safety_controller and the rest: not used by IK */
}

static void XMLCALL on_start(void *data, const char *element, const char **attributes) {
    parse_state *s = data;
    if (++s->depth > MAX_DEPTH) {
        fail(s, REACH_ERROR_INVALID_ARGUMENT, "elements nested deeper than %d", MAX_DEPTH);
        return;
    }
    if (s->depth == 1) {
        if (strcmp(element, "robot") != 0)
            fail(s, REACH_ERROR_INVALID_ARGUMENT, "the document is <%s>, not <robot>", element);
        s->seen_robot = 1;
    } else if (s->depth == 2) {
        if (strcmp(element, "link") == 0)
            start_link(s, attributes);
        else if (strcmp(element, "joint") == 0)
            start_joint(s, attributes);
    } else if (s->depth == 3 && s->joint) {
        start_joint_part(s, element, attributes);
    }
}

static void XMLCALL on_end(void *data, const char *element) {
    parse_state *s = data;
    (void)element;
    if (s->depth == 2) s->joint = NULL;
    --s->depth;
}

static void XMLCALL on_doctype(void *data, const char *name, const char *system_id, const char *public_id,
                               int has_internal_subset) {
    (void)name;
    (void)system_id;
    (void)public_id;
    (void)has_internal_subset;
    fail(data, REACH_ERROR_INVALID_ARGUMENT, "a document type declaration (<!DOCTYPE>) is not allowed in URDF");
}

static void XMLCALL on_entity(void *data, const char *name, int is_parameter, const char *value, int value_length,
                              const char *base, const char *system_id, const char *public_id, const char *notation) {
    (void)name;
    (void)is_parameter;
    (void)value;
    (void)value_length;
    (void)base;
    (void)system_id;
    (void)public_id;
    (void)notation;
    fail(data, REACH_ERROR_INVALID_ARGUMENT, "entity declarations are not allowed in URDF");
}

reach_status urdf_parse(const char *text, size_t length, urdf_document *doc, char *error, size_t error_size) {
    XML_Parser parser = XML_ParserCreate(NULL);
    if (!parser) {
        urdf_error(error, error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    parse_state s = {parser, doc, 0, 0, NULL, REACH_OK, error, error_size};
    XML_SetUserData(parser, &s);
    XML_SetElementHandler(parser, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(parser, on_doctype);
    XML_SetEntityDeclHandler(parser, on_entity);
    XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
    size_t at = 0;
    int ok = 1;
    do {
        size_t piece = length - at < CHUNK ? length - at : CHUNK;
        int last = at + piece == length;
        ok = XML_Parse(parser, text + at, (int)piece, last) == XML_STATUS_OK;
        at += piece;
    } while (ok && at < length);
    if (!ok && s.status == REACH_OK) {
        s.status = REACH_ERROR_INVALID_ARGUMENT;
        urdf_error(error, error_size, "line %d: not well-formed XML: %s", (int)XML_GetCurrentLineNumber(parser),
                   XML_ErrorString(XML_GetErrorCode(parser)));
    } else if (ok && !s.seen_robot) {
        s.status = REACH_ERROR_INVALID_ARGUMENT;
        urdf_error(error, error_size, "no <robot> element");
    }
    XML_ParserFree(parser);
    return s.status;
}

void urdf_document_free(urdf_document *doc) {
    for (int i = 0; i < doc->link_count; ++i)
        free(doc->links[i].name);
    for (int i = 0; i < doc->joint_count; ++i) {
        free(doc->joints[i].name);
        free(doc->joints[i].parent);
        free(doc->joints[i].child);
        free(doc->joints[i].mimic_joint);
    }
    free(doc->links);
    free(doc->joints);
    memset(doc, 0, sizeof *doc);
}
