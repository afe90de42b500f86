/* reach-demo: renders the demo's scenes, headless, into a folder, and prints what it wrote.
 *
 *   reach-demo [--scene NAME]... [--frames N] [--list] OUTDIR */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "index_html.h"
#include "render.h"

static void usage(FILE *f) {
    fputs("usage: reach-demo [--scene NAME]... [--frames N] [--list] OUTDIR\n"
          "Renders each scene (all by default) into OUTDIR as an animated GIF and a PNG still,\n"
          "writes OUTDIR/index.html, and prints the files written.\n"
          "  --scene NAME  render only this scene (repeatable; --list shows the names)\n"
          "  --frames N    render N frames per scene instead of the full frame rate (quick checks)\n"
          "  --list        print the scenes and exit\n",
          f);
}

/* mkdir -p: creates dir and any missing parents. */
static int make_dirs(const char *dir) {
    char path[DEMO_PATH_MAX];
    size_t length = strlen(dir);
    if (length == 0 || length >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, length + 1);
    for (size_t i = 1; i <= length; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        char saved = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        path[i] = saved;
    }
    struct stat info;
    if (stat(dir, &info) != 0) return -1;
    if (!S_ISDIR(info.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static void list_scenes(void) {
    for (int i = 0; i < demo_scene_count; i++) {
        const demo_scene *s = demo_scenes[i];
        printf("%-14s %4.1f s  %s\n", s->name, s->duration, s->caption);
    }
}

/* A positive frame count no larger than a GIF can sensibly hold. */
static int parse_frames(const char *text, int *frames) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 10000) return -1;
    *frames = (int)value;
    return 0;
}

typedef struct options {
    const demo_scene *selected[DEMO_MAX_SCENES];
    int selected_count;
    int frames;
    const char *out_dir;
} options;

/* Returns 0 to go on, 1 to exit successfully (help, list), -1 on a usage error. */
static int parse_args(int argc, char **argv, options *o) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(arg, "--list") == 0) {
            list_scenes();
            return 1;
        } else if (strcmp(arg, "--scene") == 0 && i + 1 < argc) {
            const demo_scene *scene = demo_scene_find(argv[++i]);
            if (!scene) {
                fprintf(stderr, "reach-demo: unknown scene '%s' (try --list)\n", argv[i]);
                return -1;
            }
            int already = 0;
            for (int k = 0; k < o->selected_count; k++)
                already |= o->selected[k] == scene;
            /* The table bounds the list: each scene is kept once. */
            if (!already) o->selected[o->selected_count++] = scene;
        } else if (strcmp(arg, "--frames") == 0 && i + 1 < argc) {
            if (parse_frames(argv[++i], &o->frames) != 0) {
                fprintf(stderr, "reach-demo: --frames wants a whole number from 1 to 10000, not '%s'\n", argv[i]);
                return -1;
            }
        } else if (arg[0] == '-') {
            fprintf(stderr, "reach-demo: unknown or incomplete option '%s'\n", arg);
            return -1;
        } else if (o->out_dir) {
            fprintf(stderr, "reach-demo: one output folder only ('%s' and '%s')\n", o->out_dir, arg);
            return -1;
        } else {
            o->out_dir = arg;
        }
    }
    if (!o->out_dir) {
        fprintf(stderr, "reach-demo: no output folder given\n");
        usage(stderr);
        return -1;
    }
    if (o->selected_count == 0) {
        for (int i = 0; i < demo_scene_count; i++)
            o->selected[o->selected_count++] = demo_scenes[i];
    }
    return 0;
}

int main(int argc, char **argv) {
    options o = {{NULL}, 0, 0, NULL};
    int parsed = parse_args(argc, argv, &o);
    if (parsed != 0) return parsed > 0 ? 0 : 2;
    if (make_dirs(o.out_dir) != 0) {
        fprintf(stderr, "reach-demo: cannot create folder '%s': %s\n", o.out_dir, strerror(errno));
        return 1;
    }

    static demo_render_result results[DEMO_MAX_SCENES];
    char error[DEMO_PATH_MAX + 256];
    printf("reach-demo: rendering into %s/\n", o.out_dir);
    for (int i = 0; i < o.selected_count; i++) {
        const demo_scene *scene = o.selected[i];
        demo_render_result *r = &results[i];
        if (demo_render_scene(scene, o.out_dir, o.frames, r, error, sizeof error) != 0) {
            fprintf(stderr, "reach-demo: %s\n", error);
            return 1;
        }
        printf("  %-28s %3d frames, %4.1f s  %s\n", r->gif_path, r->frames, r->seconds, scene->title);
        printf("  %-28s still of frame %d\n", r->png_path, r->still_frame);
    }
    char index_path[DEMO_PATH_MAX];
    if (demo_join_path(index_path, sizeof index_path, o.out_dir, "index", ".html") != 0 ||
        demo_write_index_html(index_path, o.selected, results, o.selected_count, error, sizeof error) != 0) {
        fprintf(stderr, "reach-demo: %s\n", error);
        return 1;
    }
    printf("  %-28s every scene with its caption: open it in a browser\n", index_path);
    return 0;
}
