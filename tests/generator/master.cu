/* header kept */
int f(int x)
{
    //@begin solution
    //@todo TODO(9a): double x.
    //@todo Use one line.
    return 2 * x;
    //@student return -1;
    //@end solution
}
  //@begin solution
  int hidden;
  //@end solution
int g(void) { return 0; }
