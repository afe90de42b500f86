/* `reach retarget SOURCE... TARGET [--map MAP.json] [-o OUT] [--jobs N] [--format jsonl|bvh]`:
 * clips (files, or folders of .bvh, .gltf and .glb files, taken in name order) carried onto a
 * character or a URDF robot. One clip prints JSON lines, or writes OUT (.jsonl, .bvh); several
 * print their lines in order, each with "clip", or write one file each into the folder OUT
 * (named after the clip, in --format). --jobs N retargets N clips at a time on threads; every
 * clip is independent, so the output is the same bytes as one at a time. A progress bar goes
 * to standard error when it is a terminal. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, fileno, isatty */

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "result.h"
#include "retarget.h"

#define MAX_JOBS 64

struct cli_progress {
    pthread_mutex_t lock;
    FILE *err;
    long done, total;
    int drawn; /* the last width of the bar drawn, in 40ths */
};

/* More frames to come: the bar's whole grows as each clip is read. */
static void cli_progress_expect(cli_progress *progress, int frames) {
    pthread_mutex_lock(&progress->lock);
    progress->total += frames;
    pthread_mutex_unlock(&progress->lock);
}

void cli_progress_add(cli_progress *progress, int frames) {
    pthread_mutex_lock(&progress->lock);
    progress->done += frames;
    int width = progress->total > 0 ? (int)(40 * progress->done / progress->total) : 40;
    if (width != progress->drawn) {
        progress->drawn = width;
        fprintf(progress->err, "\rreach retarget [%-40.*s] %3d%%", width, "########################################",
                (int)(100 * progress->done / (progress->total > 0 ? progress->total : 1)));
        fflush(progress->err);
    }
    pthread_mutex_unlock(&progress->lock);
}

typedef struct clip_job {
    const char *path;
    char *name;     /* the file's name without its folder and extension */
    char *out_path; /* several clips into a folder: the file written */
    char *text;     /* several clips printed: the lines, in memory until their turn */
    size_t length;
    int ok;
    cli_error error;
} clip_job;

typedef struct job_queue {
    clip_job *jobs;
    int count, next;
    int print_names;      /* several clips: lines carry "clip" */
    const char *out_path; /* one clip: the file to write */
    FILE *direct;         /* one job at a time: lines straight to the output */
    const cli_retarget_target *target;
    const cli_retarget_map *map;
    cli_progress *progress;
    pthread_mutex_t lock;
} job_queue;

static void run_job(job_queue *q, clip_job *job) {
    cli_retarget_source source;
    job->ok = cli_retarget_source_read(job->path, q->map, &source, &job->error);
    if (!job->ok) return;
    if (q->progress) cli_progress_expect(q->progress, source.clip.frame_count);
    FILE *out = q->direct;
    if (!out && !job->out_path && !q->out_path) {
        out = open_memstream(&job->text, &job->length);
        if (!out) {
            job->ok = cli_fail(&job->error, "out of memory");
            cli_retarget_source_free(&source);
            return;
        }
    }
    job->ok = cli_retarget_clip(&source, q->target, q->map, q->print_names ? job->name : NULL, out,
                                job->out_path ? job->out_path : q->out_path, q->progress, &job->error);
    if (out && out != q->direct) fclose(out);
    cli_retarget_source_free(&source);
}

static void *worker(void *arg) {
    job_queue *q = (job_queue *)arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        int i = q->next < q->count ? q->next++ : -1;
        pthread_mutex_unlock(&q->lock);
        if (i < 0) return NULL;
        run_job(q, &q->jobs[i]);
    }
}

static int is_folder(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends path, or a folder's clip files in name order, to *paths (allocated copies). */
static int add_source(const char *path, char ***paths, int *count, cli_error *err) {
    int first = *count;
    if (is_folder(path)) {
        DIR *dir = opendir(path);
        if (!dir) return cli_fail(err, "retarget: cannot read the folder '%s'", path);
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.' || !cli_is_character_path(entry->d_name)) continue;
            char **grown = realloc(*paths, (size_t)(*count + 1) * sizeof *grown);
            size_t size = strlen(path) + strlen(entry->d_name) + 2;
            char *full = malloc(size);
            if (grown) *paths = grown;
            if (!grown || !full) {
                free(full);
                closedir(dir);
                return cli_fail(err, "out of memory");
            }
            snprintf(full, size, "%s/%s", path, entry->d_name);
            (*paths)[(*count)++] = full;
        }
        closedir(dir);
        qsort(*paths + first, (size_t)(*count - first), sizeof **paths, compare_names);
        if (*count == first) return cli_fail(err, "retarget: the folder '%s' holds no .bvh, .gltf or .glb clip", path);
        return 1;
    }
    char **grown = realloc(*paths, (size_t)(*count + 1) * sizeof *grown);
    if (!grown) return cli_fail(err, "out of memory");
    *paths = grown;
    (*paths)[*count] = cli_strdup(path);
    if (!(*paths)[*count]) return cli_fail(err, "out of memory");
    (*count)++;
    return 1;
}

/* The clip's name: its file name without folder and extension. */
static char *clip_name(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = cli_strdup(base);
    char *dot = name ? strrchr(name, '.') : NULL;
    if (dot) *dot = '\0';
    return name;
}

typedef struct retarget_args {
    const char **positional;
    int positional_count;
    const char *map, *out, *format;
    int jobs;
} retarget_args;

static int parse(int argc, char **argv, retarget_args *a, cli_error *err) {
    a->positional = calloc((size_t)argc, sizeof *a->positional);
    if (!a->positional) return cli_fail(err, "out of memory");
    a->jobs = 1;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(arg, "--map") == 0 || strcmp(arg, "-o") == 0 || strcmp(arg, "--jobs") == 0 ||
            strcmp(arg, "--format") == 0) {
            if (!has_value) return cli_fail(err, "%s needs a value", arg);
            const char *value = argv[++i];
            if (strcmp(arg, "--map") == 0) a->map = value;
            if (strcmp(arg, "-o") == 0) a->out = value;
            if (strcmp(arg, "--format") == 0) {
                if (strcmp(value, "jsonl") != 0 && strcmp(value, "bvh") != 0)
                    return cli_fail(err, "--format: expected jsonl or bvh, not '%s'", value);
                a->format = value;
            }
            if (strcmp(arg, "--jobs") == 0) {
                char *end = NULL;
                long n = strtol(value, &end, 10);
                if (!end || *end || n < 1 || n > MAX_JOBS) return cli_fail(err, "--jobs: expected 1 to %d", MAX_JOBS);
                a->jobs = (int)n;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_fail(err, "unknown option '%s' for 'retarget'", arg);
        } else {
            a->positional[a->positional_count++] = arg;
        }
    }
    if (a->positional_count < 2) return cli_fail(err, "'retarget' needs SOURCE and TARGET");
    return 1;
}

/* Several clips into the folder OUT: each as OUT/NAME.FORMAT. */
static int name_outputs(clip_job *jobs, int count, const char *folder, const char *format, cli_error *err) {
    if (!is_folder(folder)) return cli_fail(err, "retarget: -o '%s': several clips need an existing folder", folder);
    for (int i = 0; i < count; i++) {
        size_t size = strlen(folder) + strlen(jobs[i].name) + strlen(format) + 3;
        jobs[i].out_path = malloc(size);
        if (!jobs[i].out_path) return cli_fail(err, "out of memory");
        snprintf(jobs[i].out_path, size, "%s/%s.%s", folder, jobs[i].name, format);
    }
    return 1;
}

static int run_jobs(job_queue *q, int threads, FILE *out, FILE *err) {
    pthread_t ids[MAX_JOBS];
    int started = 0;
    if (threads > q->count) threads = q->count;
    for (; threads > 1 && started < threads; started++)
        if (pthread_create(&ids[started], NULL, worker, q) != 0) break;
    if (started == 0) worker(q);
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
    if (q->progress) fputc('\n', q->progress->err);
    int status = REACH_CLI_EXIT_OK;
    for (int i = 0; i < q->count; i++) {
        clip_job *job = &q->jobs[i];
        if (job->text && job->length > 0 && fwrite(job->text, 1, job->length, out) != job->length) {
            job->ok = cli_fail(&job->error, "cannot write the result");
        }
        if (!job->ok) {
            cli_print_error(out, err, 0, job->error.message);
            status = REACH_CLI_EXIT_FAILED;
        }
    }
    fflush(out);
    return status;
}

int cli_retarget(int argc, char **argv, FILE *out, FILE *err) {
    retarget_args a = {NULL, 0, NULL, NULL, NULL, 1};
    cli_error error = {""};
    if (!parse(argc, argv, &a, &error)) {
        free(a.positional);
        strncat(error.message, " (see 'reach --help')", sizeof error.message - strlen(error.message) - 1);
        cli_print_error(out, err, 0, error.message);
        return REACH_CLI_EXIT_USAGE;
    }
    cli_retarget_map map;
    cli_retarget_target target;
    char **paths = NULL;
    int path_count = 0, status = REACH_CLI_EXIT_FAILED, have_target = 0;
    clip_job *jobs = NULL;
    int ok = cli_retarget_map_read(a.map, &map, &error);
    for (int i = 0; ok && i < a.positional_count - 1; i++)
        ok = add_source(a.positional[i], &paths, &path_count, &error);
    ok = ok && (have_target = cli_retarget_target_read(a.positional[a.positional_count - 1], &map, &target, &error));
    if (ok) {
        jobs = calloc((size_t)path_count, sizeof *jobs);
        ok = jobs ? 1 : cli_fail(&error, "out of memory");
    }
    for (int i = 0; ok && i < path_count; i++) {
        jobs[i].path = paths[i];
        jobs[i].name = clip_name(paths[i]);
        if (!jobs[i].name) ok = cli_fail(&error, "out of memory");
    }
    int several = path_count > 1;
    if (ok && several && a.out) ok = name_outputs(jobs, path_count, a.out, a.format ? a.format : "jsonl", &error);
    if (ok) {
        cli_progress progress = {PTHREAD_MUTEX_INITIALIZER, err, 0, 0, -1};
        int bar = fileno(err) >= 0 && isatty(fileno(err));
        job_queue q = {jobs,
                       path_count,
                       0,
                       several && !a.out,
                       several ? NULL : a.out,
                       a.jobs == 1 && !(several && a.out) ? out : NULL,
                       &target,
                       &map,
                       bar ? &progress : NULL,
                       PTHREAD_MUTEX_INITIALIZER};
        status = run_jobs(&q, a.jobs, out, err);
    } else {
        cli_print_error(out, err, 0, error.message);
    }
    for (int i = 0; jobs && i < path_count; i++) {
        free(jobs[i].name);
        free(jobs[i].out_path);
        free(jobs[i].text);
    }
    free(jobs);
    for (int i = 0; i < path_count; i++)
        free(paths[i]);
    free(paths);
    if (have_target) cli_retarget_target_free(&target);
    cli_retarget_map_free(&map);
    free(a.positional);
    return status;
}
