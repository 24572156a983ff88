"""C snippets shared by the transformation tests."""

GEMM = (
    "for (i = 0; i < ni; i++) {\n"
    "  for (j = 0; j < nj; j++)\n"
    "    C[i][j] *= beta;\n"
    "  for (k = 0; k < nk; k++)\n"
    "    for (j = 0; j < nj; j++)\n"
    "      C[i][j] += alpha * A[i][k] * B[k][j];\n"
    "}\n"
)

# Two nests, each scheduled as its own two-member permutable band.
ATAX = (
    "for (i = 0; i < n; i++)\n"
    "  y[i] = 0;\n"
    "for (i = 0; i < m; i++) {\n"
    "  tmp[i] = 0;\n"
    "  for (j = 0; j < n; j++)\n"
    "    tmp[i] = tmp[i] + A[i][j] * x[j];\n"
    "  for (j = 0; j < n; j++)\n"
    "    y[j] = y[j] + A[i][j] * tmp[i];\n"
    "}\n"
)

# Time plus three space loops: isl's permutable band is four members deep.
HEAT_3D = (
    "for (t = 0; t < T; t++) {\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++)\n"
    "      for (k = 1; k < n - 1; k++)\n"
    "        B[i][j][k] = 0.125 * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k] + A[i][j - 1][k]"
    " + A[i][j][k + 1] + A[i][j][k - 1]) + A[i][j][k];\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++)\n"
    "      for (k = 1; k < n - 1; k++)\n"
    "        A[i][j][k] = 0.125 * (B[i + 1][j][k] + B[i - 1][j][k] + B[i][j + 1][k] + B[i][j - 1][k]"
    " + B[i][j][k + 1] + B[i][j][k - 1]) + B[i][j][k];\n"
    "}\n"
)

JACOBI_1D = (
    "for (t = 0; t < T; t++) {\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);\n"
    "}\n"
)

JACOBI_2D = (
    "for (t = 0; t < T; t++) {\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++)\n"
    "      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++)\n"
    "      A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);\n"
    "}\n"
)
