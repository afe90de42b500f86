/* Hostile URDF files: each is refused with a message naming the element or line, leaves the rig
 * empty, and none hangs, crashes, expands entities or reads another file. */
#include "urdf_check.h"

#define ARM_LINKS "<link name='base'/><link name='arm'/>"
#define HINGE(name, parent, child)                                                                                     \
    "<joint name='" name "' type='revolute'><parent link='" parent "'/><child link='" child "'/>"                      \
    "<limit lower='-1' upper='1'/></joint>"

static void test_empty(void **state) {
    (void)state;
    urdf_read_fails("", 0, REACH_ERROR_INVALID_ARGUMENT, "not well-formed XML", "no element found", (const char *)NULL);
}

static void test_not_xml(void **state) {
    (void)state;
    URDF_FAILS("robot: {links: []}", REACH_ERROR_INVALID_ARGUMENT, "line 1", "not well-formed XML");
}

static void test_truncated(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>\n<link name='base'/>\n<joint name='j' type='fixed'>\n<parent link='base'",
               REACH_ERROR_INVALID_ARGUMENT, "line 4", "not well-formed XML");
}

static void test_no_robot(void **state) {
    (void)state;
    URDF_FAILS("<model><link name='base'/></model>", REACH_ERROR_INVALID_ARGUMENT, "<model>", "not <robot>");
}

static void test_no_links(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'><material name='red'/></robot>", REACH_ERROR_INVALID_ARGUMENT, "no links");
}

static void test_joint_names_missing_link(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>\n" ARM_LINKS "\n" HINGE("j1", "base", "forearm") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "line 3", "'j1'", "'forearm'", "not defined");
}

static void test_two_roots(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<link name='stray'/>" HINGE("j1", "base", "arm") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "two root links", "'base'", "'stray'");
}

static void test_cycle(void **state) {
    (void)state;
    /* base is the root; a and b hang on each other. */
    URDF_FAILS("<robot name='r'><link name='base'/><link name='a'/><link name='b'/>" HINGE("j1", "a", "b")
                   HINGE("j2", "b", "a") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "cycle", "'a'");
    /* Every link a child: no root at all. */
    URDF_FAILS("<robot name='r'>" ARM_LINKS HINGE("j1", "base", "arm") HINGE("j2", "arm", "base") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "cycle");
    URDF_FAILS("<robot name='r'><link name='base'/><link name='a'/>" HINGE("j1", "a", "a") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "cycle", "'a'");
}

static void test_link_with_two_parents(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'><link name='base'/><link name='a'/><link name='b'/>" HINGE("j1", "base", "a")
                   HINGE("j2", "base", "b") HINGE("j3", "a", "b") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "link 'b' has two parents", "'j2'", "'j3'");
}

static void test_duplicate_names(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>\n<link name='base'/>\n<link name='base'/></robot>", REACH_ERROR_INVALID_ARGUMENT,
               "line 3", "a second link named 'base'");
    URDF_FAILS("<robot name='r'><link name='base'/><link name='a'/><link name='b'/>" HINGE("j", "base", "a") "\n" HINGE(
                   "j", "base", "b") "</robot>",
               REACH_ERROR_INVALID_ARGUMENT, "line 2", "a second joint named 'j'");
}

static void test_unknown_joint_type(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "\n<joint name='j' type='spherical'><parent link='base'/>"
               "<child link='arm'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "line 2", "joint 'j'", "unknown type 'spherical'");
}

static void test_floating_and_planar_refused(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='floating'><parent link='base'/>"
               "<child link='arm'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "'floating' is not supported");
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='planar'><parent link='base'/>"
               "<child link='arm'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "'planar' is not supported");
}

static void test_nan_and_infinite_numbers(void **state) {
    (void)state;
    const char *bad[] = {"nan", "inf", "-inf", "1e999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char text[512];
        snprintf(text, sizeof text,
                 "<robot name='r'>" ARM_LINKS "\n<joint name='j' type='fixed'><parent link='base'/>"
                 "<child link='arm'/><origin xyz='0 %s 0'/></joint></robot>",
                 bad[i]);
        URDF_FAILS(text, REACH_ERROR_NOT_FINITE, "line 2", "<origin xyz=", "not finite");
        snprintf(text, sizeof text,
                 "<robot name='r'>" ARM_LINKS "<joint name='j' type='revolute'><parent link='base'/>"
                 "<child link='arm'/><limit lower='%s' upper='1'/></joint></robot>",
                 bad[i]);
        URDF_FAILS(text, REACH_ERROR_NOT_FINITE, "<limit lower=", "not finite");
    }
}

static void test_xyz_with_two_numbers(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='fixed'><parent link='base'/>"
               "<child link='arm'/><origin xyz='0.1 0.2'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "<origin xyz=\"0.1 0.2\">", "expected 3 numbers");
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='fixed'><parent link='base'/>"
               "<child link='arm'/><origin xyz='1 2 3 4'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "expected 3 numbers");
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='fixed'><parent link='base'/>"
               "<child link='arm'/><origin rpy='1 x 3'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "<origin rpy=", "expected 3 numbers");
}

static void test_zero_axis(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='continuous'><parent link='base'/>"
               "<child link='arm'/><axis xyz='0 0 0'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "joint 'j'", "<axis> is zero");
    /* A fixed joint's axis means nothing: files give them zero axes, and those read. */
    reach_rig rig;
    urdf_read_ok("<robot name='r'>" ARM_LINKS "<joint name='j' type='fixed'><parent link='base'/>"
                 "<child link='arm'/><axis xyz='0 0 0'/></joint></robot>",
                 &rig);
    reach_rig_free(&rig);
    /* A length whose square underflows cannot be made unit either. */
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='continuous'><parent link='base'/>"
               "<child link='arm'/><axis xyz='1e-300 0 0'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "joint 'j'", "cannot be made unit");
}

static void test_reversed_limits(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='prismatic'><parent link='base'/>"
               "<child link='arm'/><limit lower='0.5' upper='-0.5'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "joint 'j'", "lower 0.5 is above upper -0.5");
}

static void test_missing_limit(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='revolute'><parent link='base'/>"
               "<child link='arm'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "joint 'j' has no <limit>");
}

static void test_mimic_of_unknown_joint(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='revolute'><parent link='base'/>"
               "<child link='arm'/><limit lower='-1' upper='1'/>\n<mimic joint='ghost'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "line 2", "joint 'j' mimics a joint 'ghost' that is not defined");
}

static void test_mimic_cycle(void **state) {
    (void)state;
    URDF_FAILS("<robot name='r'><link name='base'/><link name='a'/><link name='b'/>"
               "<joint name='ja' type='revolute'><parent link='base'/><child link='a'/><limit lower='-1' upper='1'/>"
               "<mimic joint='jb'/></joint>"
               "<joint name='jb' type='revolute'><parent link='a'/><child link='b'/><limit lower='-1' upper='1'/>"
               "<mimic joint='ja' multiplier='2'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "mimic", "form a cycle");
    URDF_FAILS("<robot name='r'>" ARM_LINKS "<joint name='j' type='revolute'><parent link='base'/>"
               "<child link='arm'/><limit lower='-1' upper='1'/><mimic joint='j'/></joint></robot>",
               REACH_ERROR_INVALID_ARGUMENT, "form a cycle");
}

static void test_billion_laughs(void **state) {
    (void)state;
    const char *text = "<?xml version='1.0'?>\n"
                       "<!DOCTYPE robot [\n"
                       " <!ENTITY a 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'>\n"
                       " <!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>\n"
                       " <!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'>\n"
                       " <!ENTITY d '&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;'>\n"
                       " <!ENTITY e '&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;'>\n"
                       " <!ENTITY f '&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;'>\n"
                       " <!ENTITY g '&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;'>\n"
                       " <!ENTITY h '&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;'>\n"
                       " <!ENTITY i '&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;'>\n"
                       "]>\n"
                       "<robot name='&i;'><link name='&i;'/></robot>";
    URDF_FAILS(text, REACH_ERROR_INVALID_ARGUMENT, "line 2", "document type declaration (<!DOCTYPE>) is not allowed");
}

static void test_external_entity_names_a_local_file(void **state) {
    (void)state;
    /* A file of our own with a recognisable link name: were the entity read, the rig would have
     * a link called "leaked". */
    const char *path = "urdf_hostile_secret.xml";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("<link name='leaked'/>", f);
    fclose(f);
    const char *text = "<?xml version='1.0'?>\n<!DOCTYPE robot [ <!ENTITY secret SYSTEM 'urdf_hostile_secret.xml'> ]>\n"
                       "<robot name='r'><link name='base'/>&secret;</robot>";
    URDF_FAILS(text, REACH_ERROR_INVALID_ARGUMENT, "document type declaration (<!DOCTYPE>) is not allowed");
    /* Without a declaration the reference is simply undefined. */
    URDF_FAILS("<robot name='r'><link name='base'/>&secret;</robot>", REACH_ERROR_INVALID_ARGUMENT, "undefined entity");
    remove(path);
}

static void test_deep_nesting(void **state) {
    (void)state;
    enum { DEPTH = 100000 };
    size_t open_size = strlen("<a>"), close_size = strlen("</a>");
    size_t length = strlen("<robot>") + DEPTH * (open_size + close_size) + strlen("</robot>");
    char *text = malloc(length + 1);
    assert_non_null(text);
    char *at = text;
    at += sprintf(at, "<robot>");
    for (int i = 0; i < DEPTH; ++i)
        at += sprintf(at, "<a>");
    for (int i = 0; i < DEPTH; ++i)
        at += sprintf(at, "</a>");
    at += sprintf(at, "</robot>");
    urdf_read_fails(text, (size_t)(at - text), REACH_ERROR_INVALID_ARGUMENT, "nested deeper than 64",
                    (const char *)NULL);
    free(text);
}

static void test_missing_file_is_named(void **state) {
    (void)state;
    char error[URDF_ERROR_SIZE];
    reach_rig rig;
    assert_int_equal(reach_urdf_read_file("no_such_robot.urdf", &rig, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "no_such_robot.urdf"));
    assert_int_equal(rig.bone_count, 0);
}

/* Every prefix of a good file is refused or read whole: nothing in between. */
static void test_every_prefix(void **state) {
    (void)state;
    const char *text = "<robot name='r'><link name='base'/><link name='arm'/>"
                       "<joint name='j' type='revolute'><origin xyz='0 0 1' rpy='0 0.5 0'/>"
                       "<parent link='base'/><child link='arm'/><axis xyz='0 0 2'/>"
                       "<limit lower='-1' upper='1'/></joint></robot>";
    size_t n = strlen(text);
    for (size_t k = 0; k < n; ++k) {
        char error[URDF_ERROR_SIZE];
        reach_rig rig;
        reach_status st = reach_urdf_read(text, k, &rig, error, sizeof error);
        assert_int_not_equal(st, REACH_OK);
        assert_true(strlen(error) > 0);
        assert_int_equal(rig.bone_count, 0);
    }
    reach_rig rig;
    urdf_read_ok(text, &rig);
    assert_int_equal(rig.bone_count, 2);
    reach_rig_free(&rig);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_not_xml),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_no_robot),
        cmocka_unit_test(test_no_links),
        cmocka_unit_test(test_joint_names_missing_link),
        cmocka_unit_test(test_two_roots),
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_link_with_two_parents),
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_unknown_joint_type),
        cmocka_unit_test(test_floating_and_planar_refused),
        cmocka_unit_test(test_nan_and_infinite_numbers),
        cmocka_unit_test(test_xyz_with_two_numbers),
        cmocka_unit_test(test_zero_axis),
        cmocka_unit_test(test_reversed_limits),
        cmocka_unit_test(test_missing_limit),
        cmocka_unit_test(test_mimic_of_unknown_joint),
        cmocka_unit_test(test_mimic_cycle),
        cmocka_unit_test(test_billion_laughs),
        cmocka_unit_test(test_external_entity_names_a_local_file),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_missing_file_is_named),
        cmocka_unit_test(test_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
