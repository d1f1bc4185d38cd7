def draw_feature(*a, **k):
    raise NotImplementedError
