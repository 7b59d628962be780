a
//@begin solution
b
