#version 330 core
// display.vert: one triangle that covers the viewport; uv (0,0) is the image's top-left
// pixel, because the renderer writes its rows top first.
out vec2 uv;

void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)); // (0,0) (2,0) (0,2)
    uv = vec2(p.x, 1.0 - p.y);
    gl_Position = vec4(2.0 * p - 1.0, 0.0, 1.0);
}
