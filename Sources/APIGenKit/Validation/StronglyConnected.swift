/// Tarjan's strongly connected components, without recursion, so that a chain of thousands of
/// types needs no deeper stack than a chain of two.
enum StronglyConnected {
    /// The components of the graph whose edges `successors` lists, each a list of its nodes; nodes
    /// are visited in name order, so the result is the same every run. Time is linear in nodes
    /// and edges.
    static func components(of successors: [String: [String]]) -> [[String]] {
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var components: [[String]] = []

        for root in successors.keys.sorted() where index[root] == nil {
            // Each frame is a node and how many of its successors it has looked at.
            var frames: [(node: String, next: Int)] = [(root, 0)]
            index[root] = index.count
            lowLink[root] = index[root]
            stack.append(root)
            onStack.insert(root)

            while let frame = frames.last {
                let edges = successors[frame.node] ?? []
                if frame.next < edges.count {
                    frames[frames.count - 1].next += 1
                    let target = edges[frame.next]
                    if index[target] == nil {
                        index[target] = index.count
                        lowLink[target] = index[target]
                        stack.append(target)
                        onStack.insert(target)
                        frames.append((target, 0))
                    } else if onStack.contains(target) {
                        lowLink[frame.node] = min(lowLink[frame.node]!, index[target]!)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last {
                    lowLink[parent.node] = min(lowLink[parent.node]!, lowLink[frame.node]!)
                }
                if lowLink[frame.node] == index[frame.node] {
                    var component: [String] = []
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component.append(member)
                        if member == frame.node { break }
                    }
                    components.append(component)
                }
            }
        }
        return components
    }
}
