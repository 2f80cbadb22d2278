// LTI Dynamic Registration's last step: tell the LMS that opened (or framed)
// this page that the registration is done; it closes its dialog (IMS LTI
// Dynamic Registration 1.0, "Registration completed and activation").
const lms = window.opener || (window.parent !== window ? window.parent : null);
if (lms) lms.postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
