a
//@end solution
