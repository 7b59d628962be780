//@begin solution
//@solution x
//@end solution
