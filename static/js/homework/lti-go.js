// After an LMS launch: open the assignment (its address carries the personal
// token in the fragment, which stays in this browser and this frame).
location.replace(document.querySelector('meta[name=lti-go]').content);
