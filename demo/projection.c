/* 2-D view and perspective camera. */
#include "projection.h"

/* Points nearer than this to the eye plane are not drawn: dividing by their depth would fling
 * them across the picture. */
#define NEAR_PLANE 0.05

demo_view2d demo_view2d_fit(reach_vec2 min, reach_vec2 max, double left, double top, double width, double height) {
    double span_x = (double)(max.x - min.x), span_y = (double)(max.y - min.y);
    double scale_x = span_x > 0 ? width / span_x : 1, scale_y = span_y > 0 ? height / span_y : 1;
    demo_view2d view;
    view.scale = scale_x < scale_y ? scale_x : scale_y;
    double mid_x = 0.5 * (double)(min.x + max.x), mid_y = 0.5 * (double)(min.y + max.y);
    view.origin_x = left + width / 2 - mid_x * view.scale;
    view.origin_y = top + height / 2 + mid_y * view.scale;
    return view;
}

demo_point demo_view2d_point(const demo_view2d *view, reach_vec2 p) {
    demo_point pixel = {view->origin_x + (double)p.x * view->scale, view->origin_y - (double)p.y * view->scale};
    return pixel;
}

demo_camera demo_camera_look_at(reach_vec3 eye, reach_vec3 look_at, reach_vec3 up, double focal, double centre_x,
                                double centre_y) {
    demo_camera c;
    c.eye = eye;
    c.forward = reach_vec3_normalize_safe(reach_vec3_sub(look_at, eye), reach_vec3_make(0, 0, -1));
    c.right = reach_vec3_normalize_safe(reach_vec3_cross(c.forward, up), reach_vec3_any_perpendicular(c.forward));
    c.up = reach_vec3_cross(c.right, c.forward);
    c.focal = focal;
    c.centre_x = centre_x;
    c.centre_y = centre_y;
    return c;
}

int demo_camera_project(const demo_camera *camera, reach_vec3 p, demo_point *pixel, double *depth) {
    reach_vec3 v = reach_vec3_sub(p, camera->eye);
    double z = (double)reach_vec3_dot(v, camera->forward);
    if (z < NEAR_PLANE) return 0;
    double x = (double)reach_vec3_dot(v, camera->right), y = (double)reach_vec3_dot(v, camera->up);
    pixel->x = camera->centre_x + camera->focal * x / z;
    pixel->y = camera->centre_y - camera->focal * y / z;
    if (depth) *depth = z;
    return 1;
}

double demo_camera_scale_at(const demo_camera *camera, reach_vec3 p) {
    double z = (double)reach_vec3_dot(reach_vec3_sub(p, camera->eye), camera->forward);
    return camera->focal / (z > NEAR_PLANE ? z : NEAR_PLANE);
}

double demo_camera_distance(const demo_camera *camera, reach_vec3 p) {
    return (double)reach_vec3_length(reach_vec3_sub(p, camera->eye));
}

reach_vec3 demo_from_z_up(reach_vec3 p) { return reach_vec3_make(p.x, p.z, -p.y); }
