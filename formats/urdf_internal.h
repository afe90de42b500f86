/* The URDF reader's two halves: urdf_parse.c reads the XML into plain records (no meaning
 * checked beyond numbers and required attributes), urdf_tree.c checks the tree they describe
 * and builds the rig. */
#ifndef REACH_URDF_INTERNAL_H
#define REACH_URDF_INTERNAL_H

#include <stddef.h>

#include "file_text.h"
#include "reach/urdf.h"

typedef enum urdf_joint_type { URDF_REVOLUTE, URDF_CONTINUOUS, URDF_PRISMATIC, URDF_FIXED } urdf_joint_type;

typedef struct urdf_link {
    char *name;
    int line;
} urdf_link;

typedef struct urdf_joint {
    char *name;
    int line;
    urdf_joint_type type;
    char *parent, *child; /* link names; NULL until their elements are read */
    double xyz[3], rpy[3], axis[3];
    int has_limit;
    double lower, upper;
    char *mimic_joint; /* NULL: no mimic */
    double multiplier, offset;
    int mimic_line;
} urdf_joint;

typedef struct urdf_document {
    urdf_link *links;
    int link_count, link_capacity;
    urdf_joint *joints;
    int joint_count, joint_capacity;
} urdf_document;

/* A message into error (error_size bytes, always terminated), printf style: the formats
 * library's one. */
#define urdf_error formats_error

/* Parses the XML into doc. REACH_OK or an error with its message written. */
reach_status urdf_parse(const char *text, size_t length, urdf_document *doc, char *error, size_t error_size);

/* Checks the tree doc describes and builds the rig from it. */
reach_status urdf_build_rig(const urdf_document *doc, reach_rig *rig, char *error, size_t error_size);

void urdf_document_free(urdf_document *doc);

#endif
