#version 330 core
// overlay.frag: flat colour, blended over the image by its alpha.
in vec4 vcolor;
out vec4 color;

void main() {
    color = vcolor;
}
