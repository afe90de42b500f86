/* Built with the opposite precision to the library it links: must fail to link. */
#include "reach/reach.h"

int main(void) { return reach_real_size(); }
