// The Orocos KDL comparison (built when Debian's liborocos-kdl-dev is installed): the pose sets
// of the Jacobian suite (robots.h) solved in this program by KDL's ChainIkSolverPos_LMA and
// ChainIkSolverPos_NR_JL and by reach, the four solvers taking turns block by block of poses,
// every answer judged the same way under TRAC-IK's protocol (its ik_tests): each solve starts at
// the middle of the joint ranges, and an answer counts when KDL's forward kinematics (double) of
// the returned joint values lies within 1e-5 m and 1e-5 rad of the goal (TRAC-IK's eps) with
// every joint within its limits; every other answer, whatever the solver reports, is a failure.
//
//   kdl/ROBOT/lma           KDL's Levenberg–Marquardt solver with its defaults except the weights,
//                           L = (1, 1, 1, 1, 1, 1), eps = 1e-5 (the largest stopping test of its
//                           kind inside both tolerances: |dp|² + |dθ|² < eps²), and reach's
//                           iteration cap, 64 (its own is 500)
//   kdl/ROBOT/nr_jl         KDL's Newton–Raphson solver with joint limits, ChainIkSolverVel_pinv
//                           and ChainFkSolverPos_recursive, with eps = 1e-5 / √3 per twist
//                           component (so that converging means within the position tolerance;
//                           its own is 1e-6) and reach's iteration cap, 64 (its own is 100)
//   kdl/ROBOT/reach_dls     reach_jacobian_solve, DLS, the library's defaults (no restarts, at
//                           most 64 iterations)
//   kdl/ROBOT/reach_robust  DLS with 50 restarts and at most 1000 iterations
//
// Each is timed from joint values in to joint values out: KDL takes and returns joint arrays, so
// reach's timing includes setting its pose from the joint values and reading them back.
//
// Before anything is timed, KDL's chain (converted from the same DH table) must put the tool
// where reach's skeleton does for every goal's joint values.
#include <cmath>
#include <cstdio>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "bench.h"
#include "robots.h"
#include "samples.h"
#include "suites.h"

namespace {

const double position_tolerance = 1e-5; // m
const double angle_tolerance = 1e-5;    // rad
const int robust_restarts = 50, robust_iterations = 1000;
// The iteration cap every solver but the robust one gets: reach's default.
const int iteration_cap = 64;

// How closely KDL's forward kinematics must agree with reach's: rounding of a 7-joint product
// in reach_real (measured: 1e-6 in float, 1e-15 in double).
#ifdef REACH_DOUBLE
const double fk_agreement = 1e-12;
#else
const double fk_agreement = 2e-5;
#endif

// ---- the DH table as a KDL chain ---------------------------------------------------------------
//
// Row i's transform is pre_i · J_i(q) · post_i, with J a turn (revolute) or slide (prismatic)
// along z, or nothing (fixed):
//   standard  Rot_z(θ + q) Trans_z(d) Trans_x(a) Rot_x(α) = J(q) · Frame::DH(a, α, d, θ)
//   modified  Rot_x(α) Trans_x(a) Rot_z(θ + q) Trans_z(d) = Frame::DH_Craig1989(a, α, 0, 0) · J(q) ·
//             Rot_z(θ) Trans_z(d)
// (Rot_z and Trans_z commute, so a slide may come first.) A KDL segment is its joint followed by a
// fixed frame, so each moving row's joint starts a segment and every fixed part up to the next
// moving row goes into that segment's frame; a fixed part before the first joint, if any, is a
// segment without a joint.
KDL::Chain chain_of(const bench_robot *robot) {
    KDL::Chain chain;
    KDL::Joint joint(KDL::Joint::None);
    KDL::Frame pending = KDL::Frame::Identity();
    bool started = false;
    for (int i = 0; i < robot->table.row_count; i++) {
        const reach_dh_row &row = robot->rows[i];
        double a = row.a, alpha = row.alpha, d = row.d, theta = row.theta;
        bool modified = robot->table.convention == REACH_DH_MODIFIED;
        KDL::Frame pre = modified ? KDL::Frame::DH_Craig1989(a, alpha, 0, 0) : KDL::Frame::Identity();
        KDL::Frame post = modified ? KDL::Frame(KDL::Rotation::RotZ(theta), KDL::Vector(0, 0, d))
                                   : KDL::Frame::DH(a, alpha, d, theta);
        pending = pending * pre;
        if (row.type == REACH_DH_FIXED) {
            pending = pending * post;
            continue;
        }
        if (started || pending != KDL::Frame::Identity()) chain.addSegment(KDL::Segment(joint, pending));
        started = true;
        joint = KDL::Joint(row.type == REACH_DH_REVOLUTE ? KDL::Joint::RotZ : KDL::Joint::TransZ);
        pending = post;
    }
    chain.addSegment(KDL::Segment(joint, pending));
    return chain;
}

KDL::Frame frame_of(reach_transform t) {
    return KDL::Frame(KDL::Rotation::Quaternion(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w),
                      KDL::Vector(t.translation.x, t.translation.y, t.translation.z));
}

// Distance and angle between two frames.
void frame_error(const KDL::Frame &a, const KDL::Frame &b, double *distance, double *angle) {
    *distance = (a.p - b.p).Norm();
    KDL::Vector axis;
    *angle = (a.M.Inverse() * b.M).GetRotAngle(axis);
}

KDL::JntArray joint_array(const double *values, int dof) {
    KDL::JntArray q(static_cast<unsigned int>(dof));
    for (int i = 0; i < dof; i++)
        q(static_cast<unsigned int>(i)) = values[i];
    return q;
}

// NR_JL reports no iteration count; it calls forward kinematics once per iteration, and once
// more to see that it converged. This solver counts the calls.
class counting_fk : public KDL::ChainFkSolverPos_recursive {
  public:
    explicit counting_fk(const KDL::Chain &of) : KDL::ChainFkSolverPos_recursive(of) {}
    using KDL::ChainFkSolverPos_recursive::JntToCart;
    int JntToCart(const KDL::JntArray &q_in, KDL::Frame &p_out, int segment) override {
        calls++;
        return KDL::ChainFkSolverPos_recursive::JntToCart(q_in, p_out, segment);
    }
    long calls = 0;
};

// ---- one robot ---------------------------------------------------------------------------------

enum solver_kind { LMA, NR_JL, REACH_DLS, REACH_ROBUST, SOLVER_KINDS };
const char *const solver_names[SOLVER_KINDS] = {"lma", "nr_jl", "reach_dls", "reach_robust"};
const char *const short_names[SOLVER_KINDS] = {"lma", "nr_jl", "dls", "robust"}; // in ratio names

struct robot_comparison {
    const bench_robot *robot;
    const bench_robot_poses *poses;
    KDL::Chain chain;
    KDL::JntArray q_min, q_max;
    std::vector<KDL::JntArray> starts;
    std::vector<KDL::Frame> goals;
    bench_samples samples[SOLVER_KINDS];
    std::vector<unsigned char> lma_within_tolerance; // ignoring the limits LMA does not know
};

struct checks {
    long fk_disagreements = 0, reach_failures = 0;
    double worst_fk = 0;
};

void fill_values(const reach_skeleton *skeleton, const reach_transform *pose, int dof, KDL::JntArray &q) {
    reach_real values[BENCH_ROBOT_MAX_DOF];
    reach_pose_get_values(skeleton, pose, values);
    for (int i = 0; i < dof; i++)
        q(static_cast<unsigned int>(i)) = static_cast<double>(values[i]);
}

// The solvers of one robot, built once a round.
struct robot_solvers {
    KDL::ChainFkSolverPos_recursive fk;
    counting_fk counted;
    KDL::ChainIkSolverVel_pinv velocity;
    KDL::ChainIkSolverPos_LMA lma;
    KDL::ChainIkSolverPos_NR_JL nr_jl;
    reach_solver_settings dls, robust;

    robot_solvers(const robot_comparison &c, const Eigen::Matrix<double, 6, 1> &weights)
        : fk(c.chain), counted(c.chain), velocity(c.chain), lma(c.chain, weights, position_tolerance, iteration_cap),
          nr_jl(c.chain, c.q_min, c.q_max, counted, velocity, iteration_cap, position_tolerance / std::sqrt(3.0)) {
        dls = reach_solver_default_settings();
        dls.jacobian_method = REACH_JACOBIAN_DLS;
        dls.tolerance = static_cast<reach_real>(position_tolerance);
        dls.angle_tolerance = static_cast<reach_real>(angle_tolerance);
        dls.max_iterations = iteration_cap;
        robust = dls;
        robust.restarts = robust_restarts;
        robust.max_iterations = robust_iterations;
    }
};

Eigen::Matrix<double, 6, 1> lma_weights() {
    Eigen::Matrix<double, 6, 1> weights;
    weights << 1, 1, 1, 1, 1, 1;
    return weights;
}

// One solver on pose k. The answer is judged in round 0 only (the solvers are deterministic).
void solve_one(robot_comparison &c, robot_solvers &s, solver_kind kind, int k, int round, void *scratch,
               size_t scratch_size, checks &totals) {
    const bench_robot *robot = c.robot;
    KDL::JntArray q(static_cast<unsigned int>(robot->dof));
    int iterations = 0;
    double seconds = 0;
    if (kind == LMA || kind == NR_JL) {
        s.counted.calls = 0;
        double start = bench_seconds();
        int status = kind == LMA ? s.lma.CartToJnt(c.starts[size_t(k)], c.goals[size_t(k)], q)
                                 : s.nr_jl.CartToJnt(c.starts[size_t(k)], c.goals[size_t(k)], q);
        seconds = bench_seconds() - start;
        iterations = kind == LMA ? s.lma.lastNrOfIter : int(s.counted.calls - (status >= 0 ? 1 : 0));
    } else {
        reach_target target = reach_target_position(robot->tool, c.poses->goals[k].translation);
        target.orientation = c.poses->goals[k].rotation;
        target.use_orientation = 1;
        reach_transform pose[BENCH_ROBOT_MAX_ROWS + 1];
        reach_solve_result result;
        const reach_solver_settings *settings = kind == REACH_ROBUST ? &s.robust : &s.dls;
        double start = bench_seconds();
        bench_robot_set_values(robot, &c.poses->start_values[k * robot->dof], pose);
        reach_status st =
            reach_jacobian_solve(&robot->skeleton, &target, 1, settings, pose, scratch, scratch_size, &result);
        fill_values(&robot->skeleton, pose, robot->dof, q);
        seconds = bench_seconds() - start;
        totals.reach_failures += st != REACH_OK;
        iterations = result.iterations;
    }
    bench_samples &samples = c.samples[kind];
    bench_samples_put(&samples, k, round, seconds);
    if (round > 0) return;
    KDL::Frame reached;
    s.fk.JntToCart(q, reached);
    double distance, angle;
    frame_error(reached, c.goals[size_t(k)], &distance, &angle);
    bool within = distance <= position_tolerance && angle <= angle_tolerance;
    bool limits = bench_robot_within_limits(robot, q.data.data(), 1e-9) != 0;
    samples.iterations[k] = iterations;
    samples.reached[k] = within && limits;
    if (kind == LMA) c.lma_within_tolerance[size_t(k)] = within;
}

// Poses a solver takes in a row before the next solver's turn.
const int block_poses = 25;

// One round over the robot's poses, in blocks of block_poses: each solver solves a block, then
// the next solver the same block. Within a block a solver runs on its own warm caches, as in
// use; over a round the blocks spread every solver across the round's whole duration, so the
// machine's speed, which drifts over seconds, weighs on all of them alike. The order of the
// solvers turns with the block and the round and runs backwards on odd blocks, so no solver
// always follows the same one.
void solve_round(robot_comparison &c, int round, void *scratch, size_t scratch_size, checks &totals) {
    robot_solvers solvers(c, lma_weights());
    for (int first = 0, block = 0; first < c.poses->count; first += block_poses, block++) {
        int end = first + block_poses < c.poses->count ? first + block_poses : c.poses->count;
        for (int j = 0; j < SOLVER_KINDS; j++) {
            int turn = block % 2 ? SOLVER_KINDS - 1 - j : j;
            solver_kind kind = solver_kind((block + round + turn) % SOLVER_KINDS);
            for (int k = first; k < end; k++)
                solve_one(c, solvers, kind, k, round, scratch, scratch_size, totals);
        }
    }
}

void prepare(robot_comparison &c, checks &totals) {
    const bench_robot *robot = c.robot;
    unsigned int dof = static_cast<unsigned int>(robot->dof);
    c.chain = chain_of(robot);
    c.q_min = joint_array(robot->min, robot->dof);
    c.q_max = joint_array(robot->max, robot->dof);
    KDL::ChainFkSolverPos_recursive fk(c.chain);
    if (c.chain.getNrOfJoints() != dof) totals.fk_disagreements += c.poses->count;
    for (int k = 0; k < c.poses->count; k++) {
        c.starts.push_back(joint_array(&c.poses->start_values[k * robot->dof], robot->dof));
        c.goals.push_back(frame_of(c.poses->goals[k]));
        // Untimed: KDL's chain puts the tool where reach's skeleton does.
        KDL::Frame kdl_goal;
        fk.JntToCart(joint_array(&c.poses->goal_values[k * robot->dof], robot->dof), kdl_goal);
        double distance, angle;
        frame_error(kdl_goal, c.goals.back(), &distance, &angle);
        double error = std::fmax(distance, angle);
        totals.worst_fk = std::isnan(error) ? error : std::fmax(totals.worst_fk, error);
        totals.fk_disagreements += !(error <= fk_agreement);
    }
    c.lma_within_tolerance.assign(size_t(c.poses->count), 0);
}

void record(bench_run *run, robot_comparison &c) {
    char name[96];
    for (int kind = 0; kind < SOLVER_KINDS; kind++) {
        std::snprintf(name, sizeof name, "kdl/%s/%s", c.robot->name, solver_names[kind]);
        bench_samples_record(run, name, &c.samples[kind]);
    }
    double within = 0;
    for (unsigned char w : c.lma_within_tolerance)
        within += w;
    std::snprintf(name, sizeof name, "kdl/%s/lma/reached_ignoring_limits", c.robot->name);
    bench_stats stats = {100 * within / c.poses->count, 100 * within / c.poses->count, 100 * within / c.poses->count,
                         c.poses->count};
    bench_record(run, name, "%", stats);
    for (int r = REACH_DLS; r <= REACH_ROBUST; r++)
        for (int k = LMA; k <= NR_JL; k++) {
            char ratio[96], numerator[96], denominator[96];
            std::snprintf(ratio, sizeof ratio, "kdl/%s/speedup/%s_vs_%s", c.robot->name, short_names[r],
                          short_names[k]);
            std::snprintf(numerator, sizeof numerator, "kdl/%s/%s", c.robot->name, solver_names[k]);
            std::snprintf(denominator, sizeof denominator, "kdl/%s/%s", c.robot->name, solver_names[r]);
            bench_ratio(run, ratio, numerator, denominator);
            std::snprintf(ratio, sizeof ratio, "kdl/%s/speedup_per_reached/%s_vs_%s", c.robot->name,
                          short_names[r], short_names[k]);
            std::snprintf(numerator, sizeof numerator, "kdl/%s/%s/per_reached", c.robot->name, solver_names[k]);
            std::snprintf(denominator, sizeof denominator, "kdl/%s/%s/per_reached", c.robot->name, solver_names[r]);
            bench_ratio(run, ratio, numerator, denominator);
            std::snprintf(ratio, sizeof ratio, "kdl/%s/reached_ratio/%s_vs_%s", c.robot->name, short_names[r],
                          short_names[k]);
            std::snprintf(numerator, sizeof numerator, "kdl/%s/%s/reached", c.robot->name, solver_names[r]);
            std::snprintf(denominator, sizeof denominator, "kdl/%s/%s/reached", c.robot->name, solver_names[k]);
            bench_ratio(run, ratio, numerator, denominator);
        }
}

} // namespace

extern "C" void bench_suite_kdl(bench_run *run) {
    int rounds = bench_rounds(run), count = bench_is_quick(run) ? BENCH_ROBOT_QUICK_POSES : BENCH_ROBOT_POSES;
    bench_robot robots[BENCH_ROBOT_COUNT]; // they point into themselves: built in place, never copied
    bench_robot_poses poses[BENCH_ROBOT_COUNT];
    std::vector<robot_comparison> comparisons(BENCH_ROBOT_COUNT);
    checks totals;
    size_t scratch_size = 0;
    for (int r = 0; r < BENCH_ROBOT_COUNT; r++) {
        bench_check(run, bench_robot_build(&robots[r], r), "the robot's DH table builds");
        bench_robot_poses_make(&poses[r], &robots[r], count);
        robot_comparison &c = comparisons[size_t(r)];
        c.robot = &robots[r];
        c.poses = &poses[r];
        for (bench_samples &s : c.samples)
            bench_samples_init(&s, count, rounds);
        prepare(c, totals);
        size_t need = reach_jacobian_scratch_size(&robots[r].skeleton, 1);
        scratch_size = need > scratch_size ? need : scratch_size;
    }
    char message[160];
    std::snprintf(message, sizeof message, "KDL's and reach's forward kinematics agree within %.3g (worst %.3g)",
                  fk_agreement, totals.worst_fk);
    bench_check(run, totals.fk_disagreements == 0, message);
    bench_record_value(run, "kdl/accuracy/fk_agreement", "m or rad", totals.worst_fk);

    std::vector<unsigned char> scratch(scratch_size);
    bench_span span = bench_span_start();
    for (int round = 0; round < rounds; round++)
        for (robot_comparison &c : comparisons)
            solve_round(c, round, scratch.data(), scratch_size, totals);
    bench_span_end(run, span);
    std::snprintf(message, sizeof message, "kdl: every reach solve returns REACH_OK (%ld did not)",
                  totals.reach_failures);
    bench_check(run, totals.reach_failures == 0, message);

    for (robot_comparison &c : comparisons) {
        record(run, c);
        for (bench_samples &s : c.samples)
            bench_samples_free(&s);
    }
    for (bench_robot_poses &p : poses)
        bench_robot_poses_free(&p);
}
