# EmbedText.cmake: a text file as a NUL-terminated C array, for a table the library builds in
# from the file that is checked in (no second copy to keep equal by hand).
# Usage: cmake -DIN=file -DOUT=file.inc -DNAME=k_name -P EmbedText.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    "
       bytes "${bytes}")
file(WRITE "${OUT}.tmp"
     "/* generated from ${IN} by EmbedText.cmake: do not edit */\n"
     "static const char ${NAME}[] = {\n    ${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
