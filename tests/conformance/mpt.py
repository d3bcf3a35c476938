import time
from engine.game import new_game
from engine.players import get_player
from engine.compat import canonical_json, sha256_hex
st=new_game(seed='x', target=61); ps=[get_player('hard',seed=1),get_player('easy',seed=2)]
views=[]; trail=[st.start_events]
while not st.is_over:
    v=st.view(st.to_act); views.append(v)
    trail.append(st.apply(ps[st.to_act].choose(v,v['legal_actions'])))
t=time.ticks_ms()
for v in views: canonical_json(v)
print("views", len(views), time.ticks_diff(time.ticks_ms(), t))
t=time.ticks_ms(); s=canonical_json(trail); print("trail", len(s), time.ticks_diff(time.ticks_ms(), t))
t=time.ticks_ms(); s=canonical_json(st.to_dict()); print("state", len(s), time.ticks_diff(time.ticks_ms(), t))
t=time.ticks_ms(); x=[st.view(s) for s in range(2)]; s=canonical_json(x); print("final", len(s), time.ticks_diff(time.ticks_ms(), t))
from engine import compat
orig = compat._string_json
cache = {}
def cached(text):
    r = cache.get(text)
    if r is None:
        r = orig(text)
        if len(text) < 40:
            cache[text] = r
    return r
compat._string_json = cached
for rep in range(2):
    t=time.ticks_ms()
    for v in views: canonical_json(v)
    print("views cached", len(views), time.ticks_diff(time.ticks_ms(), t))
t=time.ticks_ms(); s=canonical_json(trail); print("trail", len(s), time.ticks_diff(time.ticks_ms(), t))
