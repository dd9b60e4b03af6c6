#version 330 core
// overlay.vert: 2D triangles in window pixels (origin top-left, y down), colours in sRGB.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 rgba;
out vec4 vcolor;

uniform vec2 viewport; // window size in pixels

void main() {
    vcolor = rgba;
    gl_Position = vec4(2.0 * pos.x / viewport.x - 1.0, 1.0 - 2.0 * pos.y / viewport.y, 0.0, 1.0);
}
