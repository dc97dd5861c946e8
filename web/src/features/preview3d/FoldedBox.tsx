/**
 * The 3D folded box (three.js; this module is its own lazily loaded chunk, see BoxPreview.tsx):
 * the faces of fold.ts, each a flat mesh placed by its hinge matrices, the printed side in the
 * board's colour or the artwork (a texture over the die-line's bounding box: UV = flat die-line
 * coordinates), the inside in the board's back colour. A fold slider (flat to folded), orbit and
 * zoom, and a reset of the view.
 */
import { Button, Group, Slider, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AmbientLight,
  BackSide,
  Box3,
  BufferGeometry,
  Color,
  DirectionalLight,
  Float32BufferAttribute,
  FrontSide,
  LineBasicMaterial,
  LineLoop,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  ShapeUtils,
  SRGBColorSpace,
  type Texture,
  TextureLoader,
  Group as ThreeGroup,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { type FoldInput, faceMatrices, foldModel } from './fold.ts';

export interface FoldedBoxProps {
  dieLine: FoldInput;
  /** An image of the flat artwork over the die-line's bounding box (issue 29's proofs). */
  artworkUrl?: string;
  /** Words for the text alternative when the artwork is shown (e.g. its proof version). */
  artworkLabel?: string;
  /** Kraft board (corrugated): brown both sides; else white outside, grey inside. */
  kraft?: boolean;
  testId?: string;
  /** Initial fold, 0..1 (default: folded). */
  initialFold?: number;
  height?: number;
}

/** A face's triangles in flat coordinates, with UVs over the blank's bounding box. */
function faceGeometry(polygon: { x: number; y: number }[], width: number, height: number) {
  const contour = polygon.map((p) => new Vector2(p.x, p.y));
  if (ShapeUtils.isClockWise(contour)) contour.reverse();
  const triangles = ShapeUtils.triangulateShape(contour, []);
  const positions: number[] = [];
  const uvs: number[] = [];
  for (const p of contour) {
    positions.push(p.x, p.y, 0);
    uvs.push(p.x / width, p.y / height);
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute(positions, 3));
  geometry.setAttribute('uv', new Float32BufferAttribute(uvs, 2));
  geometry.setIndex(triangles.flat());
  geometry.computeVertexNormals();
  return geometry;
}

export default function FoldedBox({
  dieLine,
  artworkUrl,
  artworkLabel,
  kraft,
  testId = 'box-3d',
  initialFold = 1,
  height = 320,
}: FoldedBoxProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [fold, setFold] = useState(initialFold);
  const [failed, setFailed] = useState(false);
  /** The artwork texture that is on the box (loaded), for tests and the text alternative. */
  const [textured, setTextured] = useState<string | null>(null);
  const [sceneId, setSceneId] = useState(0);
  const faces = useMemo(() => foldModel(dieLine), [dieLine]);
  const state = useRef<{
    renderer: WebGLRenderer;
    scene: Scene;
    camera: PerspectiveCamera;
    controls: OrbitControls;
    meshes: ThreeGroup[];
    root: ThreeGroup;
    render: () => void;
    reset: () => void;
    keepInView: () => void;
  } | null>(null);

  /** Whether the camera was fitted to the current scene (once, at its first fold). */
  const fitted = useRef(false);
  // The scene, made once per die-line.
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let renderer: WebGLRenderer;
    try {
      renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true, alpha: true });
    } catch {
      setFailed(true);
      return;
    }
    const width = element.clientWidth || 480;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    // The drawing buffer follows the host; the canvas's CSS size is the host's (never wider).
    renderer.setSize(width, height, false);
    Object.assign(renderer.domElement.style, { display: 'block', width: '100%', height: `${height}px` });
    renderer.domElement.setAttribute('data-testid', `${testId}-canvas`);
    renderer.domElement.setAttribute('aria-hidden', 'true');
    // What the canvas shows, for tests and tools that read it: the style here, the fold once drawn.
    renderer.domElement.dataset.style = dieLine.style;
    element.appendChild(renderer.domElement);
    const scene = new Scene();
    scene.background = new Color('#f4f5f7');
    scene.add(new AmbientLight(0xffffff, 1.4));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(1, 1.5, 2);
    scene.add(sun);
    const back = new DirectionalLight(0xffffff, 0.6);
    back.position.set(-1, -0.5, -2);
    scene.add(back);
    const camera = new PerspectiveCamera(35, width / height, 1, 20_000);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = false;

    const outsideColour = kraft ? '#c49a6c' : '#fbfbf8';
    const insideColour = kraft ? '#b48a5c' : '#b9bcc2';
    const outside = new MeshStandardMaterial({ color: outsideColour, side: FrontSide, roughness: 0.85 });
    const inside = new MeshStandardMaterial({ color: insideColour, side: BackSide, roughness: 0.95 });
    const lines = new LineBasicMaterial({ color: kraft ? '#7a5a3a' : '#8a8f98' });
    let texture: Texture | undefined;
    const root = new ThreeGroup();
    // The blank centred: the box turns about its middle.
    root.position.set(-dieLine.width / 2, -dieLine.height / 2, 0);
    const pivot = new ThreeGroup();
    pivot.add(root);
    // A tray (hinged on its base) stands on its base, walls up; a tube stands on its bottom.
    if (faces.find((f) => f.parent === -1)?.name === 'base') pivot.rotation.x = Math.PI / 2;
    scene.add(pivot);
    const meshes = faces.map((face) => {
      const group = new ThreeGroup();
      group.matrixAutoUpdate = false;
      if (face.polygon.length >= 3) {
        const geometry = faceGeometry(face.polygon, dieLine.width, dieLine.height);
        group.add(new Mesh(geometry, outside));
        group.add(new Mesh(geometry, inside));
        // The face's edges (cuts and creases), so that white board reads as a box.
        const loop = face.polygon.map((p) => new Vector3(p.x, p.y, 0));
        group.add(new LineLoop(new BufferGeometry().setFromPoints(loop), lines));
      }
      root.add(group);
      return group;
    });
    const render = () => renderer.render(scene, camera);
    /** How far the camera stands to see a ball of this diameter, whichever of its angles is narrower. */
    const fitDistance = (size: number) => {
      const halfFov = (camera.fov * Math.PI) / 360;
      const narrower = Math.min(halfFov, Math.atan(Math.tan(halfFov) * camera.aspect));
      return size / (2 * Math.tan(narrower));
    };
    const reset = () => {
      // Fit the folded box (or the blank) in view, seen from the front, a little from above.
      pivot.updateMatrixWorld(true);
      const box = new Box3().setFromObject(pivot);
      const centre = box.getCenter(new Vector3());
      const size = box.getSize(new Vector3()).length() || 100;
      const distance = fitDistance(size);
      camera.position.set(centre.x + distance * 0.55, centre.y + distance * 0.45, centre.z + distance * 0.75);
      camera.near = distance / 100;
      camera.far = distance * 10;
      camera.updateProjectionMatrix();
      controls.target.copy(centre);
      controls.update();
      render();
    };
    /**
     * Opening the box spreads its flaps beyond the closed box's view (a half-open tuck end's lid
     * and tuck flap left the canvas): while folding, the camera backs away along its line of sight
     * until the whole blank is in view again. It never moves closer; "Reset view" does.
     */
    const keepInView = () => {
      pivot.updateMatrixWorld(true);
      const box = new Box3().setFromObject(pivot);
      const centre = box.getCenter(new Vector3());
      const size = box.getSize(new Vector3()).length() || 100;
      const needed = centre.distanceTo(controls.target) + fitDistance(size);
      const offset = camera.position.clone().sub(controls.target);
      if (offset.length() >= needed) return;
      camera.position.copy(controls.target).add(offset.setLength(needed));
      camera.near = needed / 100;
      camera.far = needed * 10;
      camera.updateProjectionMatrix();
      controls.update();
    };
    controls.addEventListener('change', render);
    if (artworkUrl) {
      new TextureLoader().load(artworkUrl, (loaded) => {
        loaded.colorSpace = SRGBColorSpace;
        texture = loaded;
        outside.map = loaded;
        outside.color.set('#ffffff');
        outside.needsUpdate = true;
        render();
        setTextured(artworkUrl);
      });
    } else setTextured(null);
    const observer = new ResizeObserver(() => {
      const w = element.clientWidth || width;
      renderer.setSize(w, height, false);
      camera.aspect = w / height;
      camera.updateProjectionMatrix();
      render();
    });
    observer.observe(element);
    state.current = { renderer, scene, camera, controls, meshes, root, render, reset, keepInView };
    fitted.current = false;
    // The fold effect places the new scene's faces.
    setSceneId((n) => n + 1);
    return () => {
      observer.disconnect();
      controls.dispose();
      for (const group of meshes) for (const child of group.children) (child as Mesh).geometry.dispose();
      outside.dispose();
      inside.dispose();
      lines.dispose();
      texture?.dispose();
      renderer.dispose();
      renderer.domElement.remove();
      state.current = null;
    };
  }, [faces, dieLine.style, dieLine.width, dieLine.height, artworkUrl, kraft, height, testId]);

  // The fold: each face's matrix; a small lift per hinge depth keeps stacked flaps apart.
  useEffect(() => {
    const s = state.current;
    if (!s || sceneId === 0) return;
    const matrices = faceMatrices(faces, fold);
    const lift = Math.max(dieLine.caliperMm, 0.3);
    faces.forEach((face, i) => {
      const m = new Matrix4().fromArray(matrices[i]!);
      m.multiply(new Matrix4().makeTranslation(0, 0, -face.depth * lift * 0.5));
      s.meshes[i]!.matrix.copy(m);
      s.meshes[i]!.matrixWorldNeedsUpdate = true;
    });
    if (!fitted.current) {
      fitted.current = true;
      s.reset();
    } else {
      s.keepInView();
      s.render();
    }
    s.renderer.domElement.dataset.fold = String(Math.round(fold * 100));
  }, [faces, fold, dieLine.caliperMm, sceneId]);

  const percent = Math.round(fold * 100);
  const description = [
    t('preview3d.description', {
      style: dieLine.style,
      width: Math.round(dieLine.width),
      height: Math.round(dieLine.height),
      percent,
    }),
    textured && artworkLabel ? artworkLabel : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Stack gap="xs" data-testid={testId}>
      {failed ? (
        <Text size="sm" c="dimmed">
          {t('preview3d.noWebgl')}
        </Text>
      ) : (
        <div
          ref={host}
          data-artwork={textured ? 'shown' : 'none'}
          data-testid={`${testId}-view`}
          role="img"
          aria-label={description}
          style={{ width: '100%', height, touchAction: 'none' }}
        />
      )}
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" id={`${testId}-fold-label`}>
          {t('preview3d.fold')}
        </Text>
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={100}
          value={percent}
          onChange={(value) => setFold(value / 100)}
          label={(value) => `${value} %`}
          thumbLabel={t('preview3d.fold')}
          data-testid={`${testId}-fold`}
        />
        <Button
          size="xs"
          variant="default"
          onClick={() => state.current?.reset()}
          data-testid={`${testId}-reset`}
        >
          {t('preview3d.reset')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {description}
      </Text>
    </Stack>
  );
}
