package cluster

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: chapter 06's run on a real Redis Cluster.
type keyMap struct {
	Prev, Next, Part, Again, Stop key.Binding
}

var keys = keyMap{
	Prev:  widget.Bind([]string{"left", "h", "shift+tab"}, "←", "previous part"),
	Next:  widget.Bind([]string{"right", "l", "tab"}, "→", "next part"),
	Part:  widget.Bind([]string{"1", "2", "3"}, "1-3", "that part"),
	Again: widget.Bind([]string{"r"}, "r", "run again"),
	Stop:  widget.Bind([]string{"esc"}, "esc", "stop the cluster, back"), // gkeys.Back while a run is under way
}

// clusterHelp is the cluster screen's map, running or not.
type clusterHelp struct{ running bool }

func (h clusterHelp) ShortHelp() []key.Binding {
	if h.running {
		return []key.Binding{keys.Next, keys.Part, keys.Stop, widget.Global.Help}
	}
	return []key.Binding{keys.Next, keys.Part, keys.Again, widget.Global.Back, widget.Global.Help}
}

func (h clusterHelp) FullHelp() [][]key.Binding {
	back := widget.Global.Back
	if h.running {
		back = keys.Stop
	}
	return [][]key.Binding{{keys.Prev, keys.Next, keys.Part}, {keys.Again, back, widget.Global.Help, widget.Global.Quit}}
}
