/* Rigs from URDF: {"urdf": PATH}, {"urdf_text": TEXT}, {"file": PATH.urdf} and --rig PATH.urdf,
 * read by the formats library into the CLI's rig (bone names are the links', joint names the
 * joints'). A relative path is read from the request file's folder (cli_rig_set_folder). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "rig.h"
#include "reach/urdf.h"

/* The folder relative rig paths are read from: the request file's ("" for the working directory).
 * One per thread, so that programs solving requests from several threads at once (the Python
 * package) each read their own request's files. */
static _Thread_local char request_folder[4096];

void cli_rig_set_folder(const char *request_path) {
    request_folder[0] = '\0';
    if (!request_path || strcmp(request_path, "-") == 0) return;
    const char *slash = strrchr(request_path, '/');
    if (!slash) return;
    size_t length = (size_t)(slash - request_path) + 1;
    if (length >= sizeof request_folder) return;
    memcpy(request_folder, request_path, length);
    request_folder[length] = '\0';
}

int cli_is_urdf_path(const char *path) {
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".urdf") == 0;
}

void cli_rig_full_path(const char *path, char *full, size_t size) {
    if (path[0] == '/' || request_folder[0] == '\0')
        snprintf(full, size, "%s", path);
    else
        snprintf(full, size, "%s%s", request_folder, path);
}

int cli_rig_copy_read(const reach_rig *from, cli_rig *rig, cli_error *err) {
    memset(rig, 0, sizeof *rig);
    if (!cli_rig_allocate(rig, from->bone_count, err)) return 0;
    rig->joint_names = calloc((size_t)from->bone_count, sizeof *rig->joint_names);
    if (!rig->joint_names) return cli_fail(err, "out of memory reading a rig file");
    for (int b = 0; b < from->bone_count; b++) {
        rig->parents[b] = from->parents[b];
        rig->rest[b] = from->rest[b];
        rig->joints[b] = from->joints[b];
        if (!cli_rig_name_bone(rig, b, from->bone_names[b], err)) return 0;
        if (from->joint_names[b] && !(rig->joint_names[b] = cli_strdup(from->joint_names[b])))
            return cli_fail(err, "out of memory reading a rig file");
    }
    return cli_rig_validate(rig, err);
}

static int finish(reach_status status, reach_rig *read, const char *message, cli_rig *rig, cli_error *err) {
    int ok = status == REACH_OK ? cli_rig_copy_read(read, rig, err) : cli_fail(err, "rig: %s", message);
    reach_rig_free(read);
    return ok;
}

int cli_rig_read_urdf_file(const char *path, cli_rig *rig, cli_error *err) {
    char full[8192];
    cli_rig_full_path(path, full, sizeof full);
    reach_rig read;
    char message[CLI_MESSAGE_SIZE - 16];
    reach_status status = reach_urdf_read_file(full, &read, message, sizeof message);
    return finish(status, &read, message, rig, err);
}

int cli_rig_read_urdf_text(const char *text, cli_rig *rig, cli_error *err) {
    reach_rig read;
    char message[CLI_MESSAGE_SIZE - 16];
    reach_status status = reach_urdf_read(text, strlen(text), &read, message, sizeof message);
    return finish(status, &read, message, rig, err);
}
