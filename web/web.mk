# The web playground: the library compiled to WebAssembly, a static page, and its browser test.
# Included by the top-level Makefile; docs/web.md explains the pieces.
#   make wasm       build/web/reach.wasm, checked against what the page calls
#   make serve      the page on http://127.0.0.1:$(WEB_PORT)/ (WEB_PORT=8080 by default)
#   make web-test   the browser test (part of `make test`)
.PHONY: wasm serve web-test

WEB_BUILD := build/web
WEB_WASM := $(WEB_BUILD)/reach.wasm
WEB_PORT ?= 8080

# Debian's clang finds wasi-libc (/usr/{include,lib}/wasm32-wasi) and the wasm32 compiler
# runtime by itself. A reactor module has no main: the page calls its exports.
WEB_CC := clang --target=wasm32-wasi
# -msimd128: wasm SIMD lets clang vectorise the vector math; every current browser has it.
WEB_CFLAGS := -std=c11 -O2 -msimd128 -DNDEBUG -Iinclude -MMD -MP -Werror -Wall -Wextra -Wpedantic \
  -Wconversion -Wshadow -Wstrict-prototypes -Wmissing-prototypes
WEB_LDFLAGS := -mexec-model=reactor -Wl,--strip-debug

# The library sources git tracks (all of src/*.c outside a git checkout), so a file still being
# written in the working tree does not break the page.
WEB_LIB_SOURCES := $(or $(shell git ls-files 'src/*.c' 2>/dev/null),$(wildcard src/*.c))
WEB_LIB_OBJECTS := $(patsubst src/%.c,$(WEB_BUILD)/obj/lib/%.o,$(WEB_LIB_SOURCES))
WEB_GLUE_OBJECTS := $(patsubst web/wasm/%.c,$(WEB_BUILD)/obj/glue/%.o,$(wildcard web/wasm/*.c))

wasm: $(WEB_WASM)

# The library's own sources build as the library does: hidden symbols, private headers.
$(WEB_BUILD)/obj/lib/%.o: src/%.c | deps-build+web
	@mkdir -p $(@D)
	$(WEB_CC) $(WEB_CFLAGS) -DREACH_BUILDING -fvisibility=hidden -Isrc -c $< -o $@

$(WEB_BUILD)/obj/glue/%.o: web/wasm/%.c | deps-build+web
	@mkdir -p $(@D)
	$(WEB_CC) $(WEB_CFLAGS) -c $< -o $@

$(WEB_WASM): $(WEB_LIB_OBJECTS) $(WEB_GLUE_OBJECTS) web/tools/check-wasm.mjs web/public/js/reach.js $(wildcard web/public/js/solvers/*.js) web/public/js/models/model_wasm.js
	$(WEB_CC) $(WEB_LDFLAGS) -o $@.tmp $(WEB_LIB_OBJECTS) $(WEB_GLUE_OBJECTS)
	node web/tools/check-wasm.mjs $@.tmp
	mv $@.tmp $@

-include $(WEB_LIB_OBJECTS:.o=.d) $(WEB_GLUE_OBJECTS:.o=.d)

# npm ci again whenever the manifest or the lock changes.
web/node_modules/.package-lock.json: web/package.json web/package-lock.json | deps-web
	cd web && npm ci --no-audit --no-fund
	@touch $@

serve: $(WEB_WASM) web/node_modules/.package-lock.json
	node web/tools/serve.mjs --port $(WEB_PORT)

web-test: $(WEB_WASM) web/node_modules/.package-lock.json
	node web/tests/run.mjs

TEST_STEPS += web-test
