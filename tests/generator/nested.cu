//@begin solution
//@begin solution
//@end solution
