"""Who may open an assignment's dashboard from an LMS launch.

The course role decides, never the institution role: Canvas sends
``institution/person#Instructor`` (or ``#Staff``, ``#Faculty``) in every
launch of a person who teaches anywhere in the university, whatever their
role in this course, so a Learner of this course who is staff elsewhere
is a student here. PyLTI1p3's ``check_staff_access`` accepts those roles;
this module does not. The platform's own administrator (a system role)
may open every course's dashboard, as the LMS lets them.
"""
from __future__ import annotations

LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"

TEACHING = frozenset({LIS + "membership#Instructor", LIS + "membership#ContentDeveloper",
                      LIS + "system/person#Administrator", LIS + "system/person#SysAdmin"})
"""Principal roles (LTI 1.3 §A.2): a sub-role comes with its principal role."""


def teaches(launch_data: dict) -> bool:
    """Does this launch come from someone who teaches the course (or runs the LMS)?"""
    roles = launch_data.get(ROLES_CLAIM)
    return isinstance(roles, list) and any(r in TEACHING for r in roles if isinstance(r, str))
