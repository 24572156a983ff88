"""Transform: decisions (plans) and the schedule-tree rewrites that apply them."""
