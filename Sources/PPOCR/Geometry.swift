import Foundation
import PipelineCore

/// A point in pixel coordinates (x right, y down).
struct Point: Equatable {
    var x: Double
    var y: Double

    static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    static func * (lhs: Point, factor: Double) -> Point { Point(x: lhs.x * factor, y: lhs.y * factor) }
    var length: Double { (x * x + y * y).squareRoot() }
}

/// A rotated rectangle: its corners top-left, top-right, bottom-right, bottom-left (clockwise on screen).
struct Quad: Equatable {
    var topLeft: Point
    var topRight: Point
    var bottomRight: Point
    var bottomLeft: Point

    var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }
    /// The longer of the top and bottom edges.
    var width: Double { max((topRight - topLeft).length, (bottomRight - bottomLeft).length) }
    /// The longer of the left and right edges.
    var height: Double { max((bottomLeft - topLeft).length, (bottomRight - topRight).length) }

    /// The four corners of a rectangle given in any order, named the way the DB post-processing of PP-OCR does:
    /// the two leftmost corners form the left edge, the upper of each pair is its top.
    init(ordering points: [Point]) {
        let byX = points.sorted { $0.x < $1.x }
        let left = byX[0].y <= byX[1].y ? (byX[0], byX[1]) : (byX[1], byX[0])
        let right = byX[2].y <= byX[3].y ? (byX[2], byX[3]) : (byX[3], byX[2])
        self.init(topLeft: left.0, topRight: right.0, bottomRight: right.1, bottomLeft: left.1)
    }

    init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The same corners with every coordinate scaled.
    func scaled(x factorX: Double, y factorY: Double) -> Quad {
        func scale(_ point: Point) -> Point { Point(x: point.x * factorX, y: point.y * factorY) }
        return Quad(
            topLeft: scale(topLeft), topRight: scale(topRight), bottomRight: scale(bottomRight),
            bottomLeft: scale(bottomLeft))
    }

    /// The same corners moved by `offset`.
    func moved(by offset: Point) -> Quad {
        Quad(
            topLeft: topLeft + offset, topRight: topRight + offset, bottomRight: bottomRight + offset,
            bottomLeft: bottomLeft + offset)
    }
}

extension BoundingBox {
    var area: Double { Double(width) * Double(height) }

    /// The pixels from `topLeft` to `bottomRight`, rounded outwards, clipped to `bounds` (at least one pixel).
    init(from topLeft: Point, to bottomRight: Point, within bounds: BoundingBox) {
        let left = min(max(Int(topLeft.x.rounded(.down)), bounds.left), bounds.right - 1)
        let top = min(max(Int(topLeft.y.rounded(.down)), bounds.top), bounds.bottom - 1)
        let right = max(min(Int(bottomRight.x.rounded(.up)), bounds.right), left + 1)
        let bottom = max(min(Int(bottomRight.y.rounded(.up)), bounds.bottom), top + 1)
        self.init(left: left, top: top, width: right - left, height: bottom - top)
    }
}

/// A rectangle of any rotation: center, the unit vector of its first axis, and its extent along both axes.
struct RotatedRectangle {
    var center: Point
    var axis: Point
    var extent: (along: Double, across: Double)

    var shortSide: Double { min(extent.along, extent.across) }

    /// The same rectangle grown by `distance` on every side.
    func expanded(by distance: Double) -> RotatedRectangle {
        RotatedRectangle(
            center: center, axis: axis, extent: (extent.along + 2 * distance, extent.across + 2 * distance))
    }

    var corners: [Point] {
        let normal = Point(x: -axis.y, y: axis.x)
        let halfAlong = axis * (extent.along / 2)
        let halfAcross = normal * (extent.across / 2)
        return [
            center - halfAlong - halfAcross, center + halfAlong - halfAcross, center + halfAlong + halfAcross,
            center - halfAlong + halfAcross,
        ]
    }

    /// The smallest-area rectangle around `points` (rotating calipers over their convex hull); nil for no points.
    static func minimumArea(around points: [Point]) -> RotatedRectangle? {
        let hull = convexHull(points)
        guard let first = hull.first else { return nil }
        guard hull.count > 1 else { return RotatedRectangle(center: first, axis: Point(x: 1, y: 0), extent: (0, 0)) }
        var best: (area: Double, rectangle: RotatedRectangle)?
        for index in 0..<hull.count {
            let edge = hull[(index + 1) % hull.count] - hull[index]
            let length = edge.length
            guard length > 0 else { continue }
            let axis = edge * (1 / length)
            let normal = Point(x: -axis.y, y: axis.x)
            var (minAlong, maxAlong, minAcross, maxAcross) = (
                Double.infinity, -Double.infinity, Double.infinity,
                -Double.infinity
            )
            for point in hull {
                let along = point.x * axis.x + point.y * axis.y
                let across = point.x * normal.x + point.y * normal.y
                minAlong = min(minAlong, along)
                maxAlong = max(maxAlong, along)
                minAcross = min(minAcross, across)
                maxAcross = max(maxAcross, across)
            }
            let area = (maxAlong - minAlong) * (maxAcross - minAcross)
            if best == nil || area < best!.area {
                let center = axis * ((minAlong + maxAlong) / 2) + normal * ((minAcross + maxAcross) / 2)
                best = (
                    area,
                    RotatedRectangle(center: center, axis: axis, extent: (maxAlong - minAlong, maxAcross - minAcross))
                )
            }
        }
        return best?.rectangle
    }

    /// Andrew's monotone chain; collinear points dropped.
    static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard sorted.count > 2 else { return sorted }
        func cross(_ origin: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - origin.x) * (b.y - origin.y) - (a.y - origin.y) * (b.x - origin.x)
        }
        var lower: [Point] = []
        for point in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], point) <= 0 {
                lower.removeLast()
            }
            lower.append(point)
        }
        var upper: [Point] = []
        for point in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], point) <= 0 {
                upper.removeLast()
            }
            upper.append(point)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
