#include "utf8.h"

#include <string.h>

size_t cli_utf8_length(const unsigned char *s, size_t left) {
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || s[0] > 0xf4 || n > left) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;  /* overlong */
    if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0; /* a surrogate */
    if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;  /* overlong */
    if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0; /* past U+10FFFF */
    return n;
}

void cli_utf8_clean(char *text) {
    unsigned char *bytes = (unsigned char *)text;
    size_t length = strlen(text);
    for (size_t i = 0; i < length;) {
        size_t n = cli_utf8_length(bytes + i, length - i);
        if (n == 0) {
            bytes[i++] = '?';
        } else {
            i += n;
        }
    }
}
